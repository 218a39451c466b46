// Reading request bodies with a cap. Every body is capped before it is read:
// a declared Content-Length beyond the cap is refused unread, and bytes are
// counted as they arrive for bodies sent without one.
import type { IncomingBody } from '../../lib/core/body.ts';
import { ApiError } from '../../lib/core/errors.ts';

/** The cap of a JSON body unless its endpoint declares another (`maxBodyBytes`). */
export const JSON_BODY_LIMIT = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function tooLarge(limit: number) {
  return new ApiError('too_large', `The request body is larger than this route accepts (${size(limit)}).`);
}

/** Refuses a body whose declared Content-Length passes `limit`, without reading it. */
export function checkDeclaredLength(request: Request, limit: number) {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge(limit);
}

export function incomingBody(request: Request): IncomingBody {
  const declared = request.headers.get('content-length')?.trim();
  return {
    stream: request.body,
    length: declared && /^\d+$/.test(declared) ? Number(declared) : null,
    type: request.headers.get('content-type'),
  };
}

/** The same request, whose body fails with 413 past `limit` bytes. */
export function limitBody(request: Request, limit: number): Request {
  checkDeclaredLength(request, limit);
  if (!request.body) return request;
  let seen = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(tooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request, { body: counted, duplex: 'half' } as RequestInit);
}

async function readAll(request: Request, limit: number): Promise<Uint8Array> {
  checkDeclaredLength(request, limit);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * A JSON body, parsed; `{}` when there is none. Only `application/json` (or a
 * `+json` type) is read, so that a cross-site HTML form, which can only send
 * form or text types, never reaches a JSON route.
 */
export async function readJsonBody(request: Request, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const type = request.headers.get('content-type');
  const declaredEmpty = request.headers.get('content-length')?.trim() === '0';
  const refuseType = () => new ApiError('unsupported_media_type', `Send the body as JSON with "Content-Type: application/json"${type ? `, not ${JSON.stringify(type.slice(0, 100))}` : ''}.`);
  if (type !== null && !JSON_TYPE.test(type) && !declaredEmpty) throw refuseType();
  const bytes = await readAll(request, limit);
  if (bytes.byteLength === 0) return {};
  if (type === null) throw refuseType();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid JSON.');
  }
}
