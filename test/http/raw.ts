// Raw HTTP to the front server, as a hostile or careless client speaks it: the
// path goes out byte for byte (no normalisation of dot segments or escapes),
// headers as given, the body whole or in chunks.
import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { LookupFunction } from 'node:net';

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any };

export type RawOptions = {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Streamed with Transfer-Encoding: chunked, no Content-Length. */
  chunks?: Buffer[];
  /** Gives up (status 0) when no answer came within this time. */
  timeoutMs?: number;
};

/**
 * Resolves every *.localhost name to loopback, as browsers do (sites' own
 * hosts, lib/spaces/hosts.ts); Node asks the system, which may not know them.
 */
export const localhostLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) return (callback as (error: null, addresses: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    return callback(null, '127.0.0.1', 4);
  }
  return lookup(hostname, options, callback);
};

/** Resolves every name to loopback (a test's stand-in for DNS pointing a domain at this machine). */
export const localhostEverywhere: LookupFunction = (_hostname, options, callback) => {
  if (options.all) return (callback as (error: null, addresses: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  return callback(null, '127.0.0.1', 4);
};

/** A site's or live app's own origin (from the API's url), on the port a test's server listens on. */
export function onPort(address: string, serverOrigin: string): string {
  const url = new URL(address);
  url.port = new URL(serverOrigin).port;
  return url.origin;
}

export function rawRequest(origin: string, method: string, path: string, options: RawOptions = {}): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    // A fresh connection per request: an answer that closes its connection
    // (a refused body) never affects the next request.
    const headers = { ...options.headers };
    // Node sends a DELETE's body with neither Content-Length nor chunking
    // unless told, and the server would read it as the next request.
    const named = Object.keys(headers).map((h) => h.toLowerCase());
    if (options.body !== undefined && !named.includes('content-length') && !named.includes('transfer-encoding')) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: false, lookup: localhostLookup }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    // The server may answer (413, 415) and close before the whole body went out.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (options.timeoutMs) {
      req.setTimeout(options.timeoutMs, () => {
        resolve({ status: 0, headers: {}, text: `no answer within ${options.timeoutMs} ms`, json: undefined });
        req.destroy();
      });
    }
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else req.end(options.body);
  });
}

/** Runs `tasks` at most `width` at a time, in order of the list. */
export async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i]);
    }),
  );
  return results;
}

/** Whether an answer is the error envelope `{error:{code,message}}` with string code and message, as JSON. */
export function isEnvelope(answer: RawAnswer): boolean {
  const type = String(answer.headers['content-type'] ?? '');
  const error = answer.json?.error;
  return (
    /^application\/json/.test(type) &&
    typeof error?.code === 'string' &&
    error.code.length > 0 &&
    typeof error.message === 'string' &&
    Object.keys(answer.json).length === 1
  );
}

export type BytesAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request on a fresh connection; the body as the bytes that came (nothing decoded: compressed stays compressed). */
export function rawBytes(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<BytesAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: false, lookup: localhostLookup }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
