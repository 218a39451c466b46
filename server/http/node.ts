// Between Node's http objects and the Fetch API's Request and Response, which
// the route modules and the domain's file answers speak.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { PEER_HEADER, type HeaderReader } from '../../lib/core/client.ts';
import { fileParts } from './files.ts';
import type { FileAnswer } from '../../lib/core/files.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The absolute URL a route handler sees, as Next would build it. */
export function requestUrl(request: IncomingMessage, target: string): string {
  const protocol = String(request.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim() === 'https' ? 'https' : 'http';
  const host = request.headers.host && /^[\w.:[\]-]+$/.test(request.headers.host) ? request.headers.host : 'localhost';
  return `${protocol}://${host}${target}`;
}

// Each body stream's way to let go of its request (its listeners), so that
// what is left of the body can be read and dropped after the answer.
const detachBody = new WeakMap<IncomingMessage, () => void>();

/**
 * The request's body as a web stream that pulls from the socket only as the
 * reader asks. Cancelling it (a body refused as too large or of the wrong
 * type) stops reading without destroying the socket, so the refusal can still
 * be answered; sendWebResponse then reads and drops the rest.
 */
function bodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  request.pause();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      };
      const onEnd = () => controller.close();
      const onError = (error: Error) => controller.error(error);
      request.on('data', onData);
      request.once('end', onEnd);
      request.once('error', onError);
      detachBody.set(request, () => {
        request.off('data', onData);
        request.off('end', onEnd);
        request.off('error', onError);
      });
    },
    pull() {
      request.resume();
    },
    cancel() {
      detachBody.get(request)?.();
      request.pause();
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
}

/** How much of a body the answer did not need is read and dropped, at most, before the connection is cut. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 30_000;

/**
 * Reads and drops what is left of a body that was answered without being read
 * (a 413 on its declared length, a 415, an error). A client still sending it
 * then receives the answer: closing at once would reset the connection, and
 * the reset would destroy the answer unread in the client's buffer. So the
 * connection is kept (see writeAnswer) until the body has been read to its
 * end, then closed gracefully if the client asked for that, or left usable
 * for its next request. Past DISCARD_MAX_BYTES or DISCARD_MAX_MS it is cut.
 */
function discardRest(request: IncomingMessage): void {
  detachBody.get(request)?.();
  const socket = request.socket;
  let left = DISCARD_MAX_BYTES;
  const timer = setTimeout(() => socket.destroy(), DISCARD_MAX_MS);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    left -= chunk.byteLength;
    if (left >= 0) return;
    clearTimeout(timer);
    socket.destroy();
  });
  request.once('end', () => {
    clearTimeout(timer);
    if (/\bclose\b/i.test(request.headers.connection ?? '')) socket.end();
  });
  request.once('error', () => clearTimeout(timer));
  request.resume();
}

/**
 * The incoming message's headers read as a Fetch Request's are (a repeated
 * header joined), with the TCP peer's address in PEER_HEADER as toWebRequest
 * puts it: for the hot paths that need a few headers and no Request.
 */
export function headersOf(request: IncomingMessage): { headers: HeaderReader } {
  return {
    headers: {
      get(name) {
        if (name === PEER_HEADER) return request.socket.remoteAddress ?? null;
        const value = request.headers[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/**
 * A Fetch Request over the incoming message. The body stays a lazy stream:
 * nothing is read until a handler asks for it. The TCP peer's address rides in
 * PEER_HEADER, replacing anything a client sent under that name.
 */
export function toWebRequest(request: IncomingMessage, url: string, method = request.method ?? 'GET'): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === PEER_HEADER || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.set(PEER_HEADER, request.socket.remoteAddress ?? '');
  const hasBody = !BODYLESS.has(method);
  // Aborted when the client goes away before its request was read whole: a
  // failure then is the client's leaving, not the server's (server/http/route.ts).
  const gone = new AbortController();
  request.once('close', () => {
    if (!request.complete) gone.abort();
  });
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (bodyStream(request) as unknown as BodyInit) : undefined,
    duplex: 'half',
    signal: gone.signal,
  } as RequestInit);
}

/**
 * Writes a Fetch Response, streaming its body; HEAD answers carry headers
 * only. A request body the answer left unread is then read and dropped.
 */
export async function sendWebResponse(request: IncomingMessage, response: ServerResponse, answer: Response): Promise<void> {
  await writeAnswer(request, response, answer);
  if (!request.complete && !request.destroyed) discardRest(request);
}

/**
 * An answer's headers with the ones every answer carries. An answer that says
 * who may frame it (published pages) is not refused every frame by the
 * default X-Frame-Options; one it sets itself (a site's _headers) stays.
 */
function withSecurityHeaders(own: Iterable<[string, string]>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name.toLowerCase()] = value;
  let framing = false;
  for (const [name, value] of own) {
    if (name === 'set-cookie') continue;
    headers[name] = value;
    if (name === 'x-frame-options') framing = true;
  }
  if (!framing && headers['content-security-policy']?.toString().includes('frame-ancestors')) delete headers['x-frame-options'];
  return headers;
}

/**
 * A published site's or live app's answer, written to Node's response: a
 * stored file straight out (sendFile), a page or JSON as the Response it is;
 * `cookie`, the visitor's grant, set on either.
 */
export function sendAnswer(request: IncomingMessage, response: ServerResponse, answer: FileAnswer | Response, cookie: string | null): Promise<void> {
  if (!(answer instanceof Response)) return sendFile(request, response, answer, cookie);
  if (cookie) answer.headers.append('set-cookie', cookie);
  return sendWebResponse(request, response, answer);
}

/** A stored file's answer written straight to Node's response, without a Fetch Request and Response around it. */
async function sendFile(request: IncomingMessage, response: ServerResponse, answer: FileAnswer, cookie: string | null): Promise<void> {
  const { status, headers, body } = await fileParts({ method: request.method ?? 'GET', ...headersOf(request) }, answer);
  const outgoing = withSecurityHeaders(Object.entries(headers));
  if (cookie) outgoing['set-cookie'] = cookie;
  if (!request.complete) response.shouldKeepAlive = true;
  response.writeHead(status, outgoing);
  if (body instanceof Uint8Array || body === null) response.end(body ?? undefined);
  else await pipeline(Readable.fromWeb(body as NodeReadableStream), response).catch(() => undefined);
  if (!request.complete && !request.destroyed) discardRest(request);
}

async function writeAnswer(request: IncomingMessage, response: ServerResponse, answer: Response): Promise<void> {
  // Node closes the connection right after an answer the client asked to be
  // the last; with a body still arriving that close is a reset (discardRest).
  if (!request.complete) response.shouldKeepAlive = true;
  const headers = withSecurityHeaders(answer.headers);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (!answer.body || request.method === 'HEAD') {
    response.writeHead(answer.status, headers);
    await answer.body?.cancel();
    response.end();
    return;
  }
  // Most answers (JSON) are one chunk: written at once with their length
  // rather than through a stream pipeline, which costs more than the answer.
  const reader = answer.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  let second: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await reader.read();
    second = first.done ? first : await reader.read();
  } catch {
    // The body failed before anything was sent.
    response.destroy();
    return;
  }
  if (second.done) {
    const whole = first.done ? undefined : first.value;
    if (!('content-length' in headers)) headers['content-length'] = String(whole?.byteLength ?? 0);
    response.writeHead(answer.status, headers);
    response.end(whole);
    return;
  }
  response.writeHead(answer.status, headers);
  async function* rest() {
    yield first.value!;
    yield second.value!;
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield next.value;
    }
  }
  try {
    await pipeline(Readable.from(rest(), { objectMode: false }), response);
  } catch {
    // The client went away mid-answer; nothing is left to tell it.
    await reader.cancel().catch(() => {});
  }
}
