// Stored files going out. Domain code describes the file to send (a
// FileAnswer); this turns it into a response: a strong ETag from the content
// hash, 304 when the client has it, nosniff, and the bytes streamed from the
// blob store (none for HEAD).
import { blobStore } from '../storage/index.ts';
import { ApiError } from './errors.ts';

export type StoredFile = { sha256: string; size: number; contentType: string };

export class FileAnswer {
  readonly file: StoredFile;
  /** Content policy and caching, e.g. content-security-policy, content-disposition. */
  readonly headers: Record<string, string>;
  readonly status: number;

  constructor(file: StoredFile, headers: Record<string, string> = {}, status = 200) {
    this.file = file;
    this.headers = headers;
    this.status = status;
  }
}

/**
 * Small files stay in memory once read, the most recently used first, up to
 * HOT_TOTAL_BYTES: a site's pages, styles and scripts are read again by every
 * visitor, and a blob is named by its hash, so what is kept is never stale.
 */
const HOT_FILE_BYTES = 64 * 1024;
const HOT_TOTAL_BYTES = 64 * 1024 * 1024;
const hotFiles = new Map<string, Uint8Array<ArrayBuffer>>();
let hotBytes = 0;

async function smallFile(file: StoredFile): Promise<Uint8Array<ArrayBuffer> | null> {
  const kept = hotFiles.get(file.sha256);
  if (kept) {
    hotFiles.delete(file.sha256);
    hotFiles.set(file.sha256, kept);
    return kept;
  }
  const stream = await blobStore().get(file.sha256, file.size);
  if (!stream) return null;
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  hotFiles.set(file.sha256, bytes);
  hotBytes += bytes.byteLength;
  for (const [sha256, oldest] of hotFiles) {
    if (hotBytes <= HOT_TOTAL_BYTES) break;
    hotFiles.delete(sha256);
    hotBytes -= oldest.byteLength;
  }
  return bytes;
}

/** What a FileAnswer sends: the status, the headers and the bytes (null for HEAD and 304). */
export type FileParts = { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null };

/** The answer to a request for a stored file: 304 when the client has it, else its bytes (none for HEAD). */
export async function fileParts(request: { method: string; ifNoneMatch: string | null }, answer: FileAnswer): Promise<FileParts> {
  const { file, status } = answer;
  const etag = `"${file.sha256}"`;
  const headers = { etag, 'x-content-type-options': 'nosniff', 'x-content-sha256': file.sha256, ...answer.headers };
  if (status === 200 && request.ifNoneMatch?.split(/\s*,\s*/).includes(etag)) return { status: 304, headers, body: null };
  const body = request.method === 'HEAD' ? null : file.size <= HOT_FILE_BYTES ? await smallFile(file) : await blobStore().get(file.sha256, file.size);
  if (request.method !== 'HEAD' && !body) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
  return { status, headers: { ...headers, 'content-type': file.contentType, 'content-length': String(file.size) }, body };
}

export async function fileResponse(request: Request, answer: FileAnswer): Promise<Response> {
  const { status, headers, body } = await fileParts({ method: request.method, ifNoneMatch: request.headers.get('if-none-match') }, answer);
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
