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
