// Between Node's http objects and the Fetch API's Request and Response, which
// the route modules and the domain's file answers speak.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PEER_HEADER } from '../lib/http/client.ts';
import { SECURITY_HEADERS } from '../lib/http/security-headers.ts';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The absolute URL a route handler sees, as Next would build it. */
export function requestUrl(request: IncomingMessage, target: string): string {
  const protocol = String(request.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim() === 'https' ? 'https' : 'http';
  const host = request.headers.host && /^[\w.:[\]-]+$/.test(request.headers.host) ? request.headers.host : 'localhost';
  return `${protocol}://${host}${target}`;
}

/**
 * The request's body as a web stream that pulls from the socket only as the
 * reader asks. Cancelling it (a body refused as too large or of the wrong
 * type) stops reading without destroying the socket, so the refusal can still
 * be answered; sendWebResponse then closes the connection.
 */
function bodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  request.pause();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      });
      request.once('end', () => controller.close());
      request.once('error', (error) => controller.error(error));
    },
    pull() {
      request.resume();
    },
    cancel() {
      request.pause();
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
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
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (bodyStream(request) as unknown as BodyInit) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/** Writes a Fetch Response, streaming its body; HEAD answers carry headers only. */
export async function sendWebResponse(request: IncomingMessage, response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name.toLowerCase()] = value;
  for (const [name, value] of answer.headers) if (name !== 'set-cookie') headers[name] = value;
  // An answer that says who may frame it (published pages) is not refused every frame by X-Frame-Options.
  if (headers['content-security-policy']?.toString().includes('frame-ancestors')) delete headers['x-frame-options'];
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  // A body left unread (refused, or never needed) is not drained: the connection closes after the answer.
  if (!request.complete) headers.connection = 'close';
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
