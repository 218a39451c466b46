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

export async function fileResponse(request: Request, answer: FileAnswer): Promise<Response> {
  const { file, status } = answer;
  const etag = `"${file.sha256}"`;
  const headers = { etag, 'x-content-type-options': 'nosniff', 'x-content-sha256': file.sha256, ...answer.headers };
  if (status === 200 && request.headers.get('if-none-match')?.split(/\s*,\s*/).includes(etag)) {
    return new Response(null, { status: 304, headers });
  }
  const body = request.method === 'HEAD' ? null : await blobStore().get(file.sha256, file.size);
  if (request.method !== 'HEAD' && !body) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
  return new Response(body, { status, headers: { ...headers, 'content-type': file.contentType, 'content-length': String(file.size) } });
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
