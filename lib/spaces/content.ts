// How stored files go out: content types, and the headers that keep published
// content from running with the app's privileges (server/http/files.ts sends them).
import { lookup } from 'mime-types';
import { config } from '../config.ts';
import { FileAnswer, type StoredFile } from '../core/files.ts';
import { isMediaType } from '../schemas/common.ts';

/** Attachments and raw uploads: nothing may run, load or be sniffed. */
export const ATTACHMENT_CSP = "default-src 'none'; sandbox";

/**
 * A published page on its own host runs as on any static host: its scripts,
 * storage and cookies are its own origin's. On the app's origin (no content
 * domain) it runs sandboxed into an opaque origin (no `allow-same-origin`),
 * so it can neither read the app's cookies nor call the API as the visitor.
 * Either way only the app's own pages may frame it (an app's preview).
 */
export function siteCsp(where: 'own-host' | 'app-origin'): string {
  const ancestors = `frame-ancestors 'self' ${new URL(config.publicUrl).origin}`;
  if (where === 'own-host') return ancestors;
  const flags = ['allow-scripts', 'allow-forms', 'allow-popups', 'allow-popups-to-escape-sandbox', 'allow-modals', 'allow-downloads'];
  return `sandbox ${flags.join(' ')}; ${ancestors}`;
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

/** A stream of no bytes, for a request that came without a body. */
export function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

/** A download: the file as an attachment that nothing can run. */
export function attachment(file: StoredFile, filename: string): FileAnswer {
  return new FileAnswer(file, {
    'content-disposition': contentDisposition('attachment', filename),
    'content-security-policy': ATTACHMENT_CSP,
    'cache-control': 'private, no-cache',
  });
}
