// How a file of a published space is shown in the web app: rendered markdown,
// highlighted code, an image, or plain text. Published content is untrusted:
// markdown is rendered without raw HTML (react-markdown drops it and rewrites
// unsafe link protocols), and highlighted code is HTML that highlight.js
// builds from escaped text.
import hljs from 'highlight.js/lib/common';

export type FileView = { kind: 'markdown' } | { kind: 'image' } | { kind: 'binary' } | { kind: 'code'; html: string; language: string | null };

const IMAGE = /^image\/(png|jpeg|gif|webp|avif|svg\+xml)/;
const MARKDOWN = /\.(md|markdown|mdx)$/i;

/** The language highlight.js knows for a path's extension, if any. */
function languageOf(path: string): string | null {
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  const name = { htm: 'html', html: 'xml', svg: 'xml', mjs: 'javascript', cjs: 'javascript', yml: 'yaml', md: 'markdown' }[extension] ?? extension;
  return hljs.getLanguage(name) ? name : null;
}

/**
 * What kind of file it is, for people: the language of a source file (a
 * `.ts` file is TypeScript, not the video/mp2t its extension is registered
 * as; a `.py` file Python, not application/octet-stream), else its media type.
 */
export function typeLabel(path: string, contentType: string, isText: boolean): string {
  const language = isText && !MARKDOWN.test(path) ? languageOf(path) : null;
  if (!language) return contentType.split(';')[0];
  // highlight.js calls its HTML grammar "HTML, XML".
  return /\.html?$/i.test(path) ? 'HTML' : (hljs.getLanguage(language)?.name ?? contentType.split(';')[0]);
}

export function fileView(path: string, contentType: string, isText: boolean, content: string): FileView {
  if (IMAGE.test(contentType)) return { kind: 'image' };
  if (!isText) return { kind: 'binary' };
  if (MARKDOWN.test(path)) return { kind: 'markdown' };
  const language = languageOf(path);
  const html = language ? hljs.highlight(content, { language, ignoreIllegals: true }).value : escapeHtml(content);
  return { kind: 'code', html, language };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The entries directly inside `dir` ("" for the root): folders first, then files. */
export function listFolder<T extends { path: string }>(files: T[], dir: string): { folders: string[]; files: T[] } {
  const prefix = dir ? `${dir}/` : '';
  const folders = new Set<string>();
  const here: T[] = [];
  for (const file of files) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) here.push(file);
    else folders.add(rest.slice(0, slash));
  }
  return { folders: [...folders].sort(), files: here };
}

/**
 * Where a link or image in a published markdown file points, within the
 * space: relative targets are resolved against the file's folder ("about/"
 * from "docs/README.md" is "docs/about/"); absolute addresses, other sites,
 * fragments and mail links are left alone (null).
 */
export function resolveRelative(filePath: string, target: string): { path: string; hash: string; query: string } | null {
  if (!target || target.startsWith('#') || target.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const dir = filePath.includes('/') ? filePath.slice(0, filePath.lastIndexOf('/') + 1) : '';
  // A made-up origin: only the path arithmetic of URL is wanted ("..", "./").
  const url = new URL(target, `http://space.invalid/${dir.split('/').map(encodeURIComponent).join('/')}`);
  const path = decodeURIComponent(url.pathname.slice(1));
  return { path, hash: url.hash, query: url.search };
}

export type LinkContext = { spaceId: string; version: number; siteUrl: string; latest: number };

/** The web app's address for a resolved link: a folder opens the folder, a file opens the file, at the same version. */
export function spaceLink(ctx: LinkContext, filePath: string, target: string): string {
  const resolved = resolveRelative(filePath, target);
  if (!resolved) return target;
  const params = new URLSearchParams();
  if (ctx.version !== ctx.latest) params.set('v', String(ctx.version));
  if (resolved.path === '' || resolved.path.endsWith('/')) {
    if (resolved.path) params.set('dir', resolved.path.replace(/\/$/, ''));
  } else params.set('path', resolved.path);
  const query = params.toString();
  return `/spaces/${ctx.spaceId}${query ? `?${query}` : ''}${resolved.hash}`;
}

/** Where an image of a markdown file is served from: the published site at that version. */
export function spaceAsset(ctx: LinkContext, filePath: string, target: string): string {
  const resolved = resolveRelative(filePath, target);
  if (!resolved) return target;
  return `${ctx.siteUrl}${resolved.path.split('/').map(encodeURIComponent).join('/')}?v=${ctx.version}`;
}
