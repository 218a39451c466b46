// How stored files go out: content types, the headers that keep published
// content from running with the app's privileges, and file responses with
// strong ETags (the content hash).
import { lookup } from 'mime-types';
import { config } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import { isMediaType } from '../schemas/common.ts';
import { blobStore } from '../storage/index.ts';

/** Attachments and raw uploads: nothing may run, load or be sniffed. */
export const ATTACHMENT_CSP = "default-src 'none'; sandbox";

/**
 * Published sites run scripts, but in a sandbox: on the app's own origin the
 * page gets an opaque origin (no `allow-same-origin`), so it can neither read
 * the app's cookies nor call the API as the visitor. With a separate content
 * origin (CONTENT_BASE_URL) the page may keep its origin, for localStorage.
 */
export function siteCsp(): string {
  const flags = ['allow-scripts', 'allow-forms', 'allow-popups', 'allow-popups-to-escape-sandbox', 'allow-modals', 'allow-downloads'];
  if (config.separateContentOrigin) flags.push('allow-same-origin');
  return `sandbox ${flags.join(' ')}`;
}

const TEXTUAL = /^(text\/|application\/(json|javascript|xml|xhtml\+xml|manifest\+json|ld\+json)|image\/svg\+xml)/;

/** The type a file is served with: the one pushed, else guessed from its name; text gets charset=utf-8. */
export function contentTypeOf(path: string, given: string | null): string {
  // A type stored before types were validated may be unusable in a header: guess instead.
  const type = given && isMediaType(given) ? given : lookup(path) || 'application/octet-stream';
  return TEXTUAL.test(type) && !/charset=/i.test(type) ? `${type}; charset=utf-8` : type;
}

export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export type FileToSend = { sha256: string; size: number; contentType: string };

/**
 * A response streaming a stored blob, with a strong ETag from its hash and
 * nosniff; 304 when the client already has it.
 */
export async function fileResponse(
  request: Request,
  file: FileToSend,
  headers: Record<string, string>,
  status = 200,
): Promise<Response> {
  const etag = `"${file.sha256}"`;
  const common = { etag, 'x-content-type-options': 'nosniff', 'x-content-sha256': file.sha256, ...headers };
  if (status === 200 && request.headers.get('if-none-match')?.split(/\s*,\s*/).includes(etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  const body = request.method === 'HEAD' ? null : await blobStore().get(file.sha256);
  if (request.method !== 'HEAD' && !body) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
  return new Response(body, { status, headers: { ...common, 'content-type': file.contentType, 'content-length': String(file.size) } });
}

/** A download: the file as an attachment that nothing can run. */
export function attachment(request: Request, file: FileToSend, filename: string): Promise<Response> {
  return fileResponse(request, file, {
    'content-disposition': contentDisposition('attachment', filename),
    'content-security-policy': ATTACHMENT_CSP,
    'cache-control': 'private, no-cache',
  });
}
