// Stored files going out. Domain code describes the file to send (a
// FileAnswer); this turns it into a response: a strong ETag from the content
// hash, 304 when the client has it, nosniff, brotli or gzip when the client
// takes them (server/http/encoding.ts), one byte range when asked
// (server/http/ranges.ts), and the bytes from the blob store (none for HEAD).
import type { HeaderReader } from '../../lib/core/client.ts';
import { blobStore, type ByteSpan } from '../../lib/storage/index.ts';
import { chosenCoding, compress, compressible, COMPRESS_MAX_BYTES, COMPRESS_MIN_BYTES } from './encoding.ts';
import { ApiError } from '../../lib/core/errors.ts';
import { log } from '../../lib/log.ts';
import { askedSpan, rangeStillValid } from './ranges.ts';
import { FileAnswer, type Coding, type StoredFile } from '../../lib/core/files.ts';

/**
 * Small files, and the compressed bytes of every file compressed, stay in
 * memory once made, the most recently used last, up to KEPT_TOTAL_BYTES: a
 * site's pages, styles and scripts are read again by every visitor, and a
 * blob is named by its hash, so what is kept is never stale. Each is made
 * once however many visitors ask for it at the same time.
 */
const KEPT_FILE_BYTES = 64 * 1024;
const KEPT_TOTAL_BYTES = 64 * 1024 * 1024;
const kept = new Map<string, Uint8Array<ArrayBuffer>>();
let keptBytes = 0;
const making = new Map<string, Promise<Uint8Array<ArrayBuffer> | null>>();

function keep(key: string, bytes: Uint8Array<ArrayBuffer>): void {
  kept.set(key, bytes);
  keptBytes += bytes.byteLength;
  for (const [oldKey, oldest] of kept) {
    if (keptBytes <= KEPT_TOTAL_BYTES) break;
    kept.delete(oldKey);
    keptBytes -= oldest.byteLength;
  }
}

function keptOrMade(key: string, make: () => Promise<Uint8Array<ArrayBuffer> | null>): Promise<Uint8Array<ArrayBuffer> | null> {
  const found = kept.get(key);
  if (found) {
    kept.delete(key);
    kept.set(key, found);
    return Promise.resolve(found);
  }
  let pending = making.get(key);
  if (!pending) {
    pending = make()
      .then((bytes) => (bytes && keep(key, bytes), bytes))
      .finally(() => making.delete(key));
    making.set(key, pending);
  }
  return pending;
}

async function wholeFile(file: StoredFile): Promise<Uint8Array<ArrayBuffer> | null> {
  const stream = await blobStore().get(file.sha256, file.size);
  return stream && new Uint8Array(await new Response(stream).arrayBuffer());
}

const smallFile = (file: StoredFile) => keptOrMade(file.sha256, () => wholeFile(file));

/**
 * A file's bytes in `coding`: compressed once, by whichever node first
 * needs them, at the best quality (server/http/encoding.ts), stored beside the
 * blob for every node and every restart, and kept in memory.
 */
function encodedFile(file: StoredFile, coding: Coding): Promise<Uint8Array<ArrayBuffer> | null> {
  return keptOrMade(`${file.sha256}.${coding}`, async () => {
    const copy = await blobStore().getCopy(file.sha256, coding);
    if (copy) return new Uint8Array(copy.buffer, copy.byteOffset, copy.byteLength) as Uint8Array<ArrayBuffer>;
    const bytes = file.size <= KEPT_FILE_BYTES ? await smallFile(file) : await wholeFile(file);
    if (!bytes) return null;
    const compressed = await compress(bytes, coding);
    // A copy that could not be stored costs a compression later, not this answer.
    await blobStore()
      .putCopy(file.sha256, coding, compressed)
      .catch((error) => log.warn('could not store a compressed copy', { sha256: file.sha256, coding, error: String(error) }));
    return compressed;
  });
}

/** The stored bytes, or the span of them asked for. */
async function storedBody(file: StoredFile, span: ByteSpan | null): Promise<Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null> {
  if (file.size > KEPT_FILE_BYTES) return blobStore().get(file.sha256, file.size, span ?? undefined);
  const bytes = await smallFile(file);
  return bytes && span ? bytes.subarray(span.start, span.end + 1) : bytes;
}

/** If-None-Match's weak comparison: the tag itself, marked weak (as a proxy that recompressed sends it back), or `*`. */
function clientHas(ifNoneMatch: string | null, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
}

/** What a FileAnswer sends: the status, the headers and the bytes (null for HEAD and 304). */
export type FileParts = { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null };

/**
 * The answer to a request for a stored file: 304 when the client has it;
 * else its bytes, compressed when the type gains by it and the client takes
 * brotli or gzip (each coding its own ETag), or the one range asked for (of
 * the stored bytes, as nginx answers ranges); HEAD gets the same headers.
 */
export async function fileParts(request: { method: string; headers: HeaderReader }, answer: FileAnswer): Promise<FileParts> {
  const { file, status } = answer;
  const asked = (name: string) => request.headers.get(name);
  const rangeable = status === 200;
  const negotiable = compressible(file.contentType) && file.size >= COMPRESS_MIN_BYTES && file.size <= COMPRESS_MAX_BYTES;
  const coding = negotiable && !(rangeable && asked('range')) ? chosenCoding(asked('accept-encoding')) : null;
  const etag = coding ? `"${file.sha256}-${coding}"` : `"${file.sha256}"`;
  const headers: Record<string, string> = { etag, 'x-content-type-options': 'nosniff', 'x-content-sha256': file.sha256, ...answer.headers };
  if (negotiable) headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  if (rangeable) headers['accept-ranges'] = 'bytes';
  if (rangeable && clientHas(asked('if-none-match'), etag)) return { status: 304, headers, body: null };
  const head = request.method === 'HEAD';
  if (coding) {
    // HEAD too: its Content-Length is the compressed one GET sends.
    const bytes = await encodedFile(file, coding);
    if (!bytes) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
    return { status, headers: { ...headers, 'content-type': file.contentType, 'content-encoding': coding, 'content-length': String(bytes.byteLength) }, body: head ? null : bytes };
  }
  const span = rangeable && rangeStillValid(asked('if-range'), etag) ? askedSpan(asked('range'), file.size) : null;
  if (span === 'unsatisfiable') {
    const message = new TextEncoder().encode(`The range asked for starts past the end of this file, which has ${file.size} bytes.`);
    const refusal = { 'content-range': `bytes */${file.size}`, 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8', 'content-length': String(message.byteLength) };
    return { status: 416, headers: { ...headers, ...refusal }, body: head ? null : message };
  }
  const body = head ? null : await storedBody(file, span);
  if (!head && !body) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
  const length = span ? span.end - span.start + 1 : file.size;
  const sent: Record<string, string> = { ...headers, 'content-type': file.contentType, 'content-length': String(length) };
  if (span) sent['content-range'] = `bytes ${span.start}-${span.end}/${file.size}`;
  return { status: span ? 206 : status, headers: sent, body };
}

export async function fileResponse(request: Request, answer: FileAnswer): Promise<Response> {
  const { status, headers, body } = await fileParts(request, answer);
  return new Response(body, { status, headers });
}

/** A generated file to download (an export), never cached or sniffed. */
export function attachment(body: string | ReadableStream<Uint8Array>, filename: string, contentType: string): Response {
  return new Response(body, {
    headers: {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
