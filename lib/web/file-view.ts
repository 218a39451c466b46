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

/** A node of the HTML tree react-markdown renders (hast), as far as task lists need it. */
type HtmlNode = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: HtmlNode[] };

/** An element's own text, without that of lists nested in it. */
const ownText = (node: HtmlNode): string =>
  node.type === 'text' ? (node.value ?? '') : node.tagName === 'ul' || node.tagName === 'ol' ? '' : (node.children ?? []).map(ownText).join('');

/**
 * A rehype plugin: GitHub-flavoured markdown renders a task list's checkbox
 * with no name, which screen readers announce as just "checkbox"; each is
 * named by its item's text. The box is the item's first child, or its
 * paragraph's in a loose list.
 */
export function rehypeTaskListLabels() {
  const label = (node: HtmlNode) => {
    if (node.tagName === 'li') {
      const first = node.children?.find((child) => child.type === 'element');
      const box = first?.tagName === 'p' ? first.children?.find((child) => child.type === 'element') : first;
      if (box?.tagName === 'input' && box.properties?.type === 'checkbox') box.properties.ariaLabel = ownText(node).trim();
    }
    node.children?.forEach(label);
  };
  return label;
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

/**
 * Highlighted HTML cut into lines, each one whole: a span that a line break
 * crosses (a block comment, a template string) is closed at the end of the
 * line and opened again on the next. highlight.js writes only spans and
 * escaped text, so the tags are the only `<` there. A last empty line (the
 * file's final line break) is not a line of its own.
 */
export function htmlLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const part of html.split(/(<span[^>]*>|<\/span>)/)) {
    if (part.startsWith('<span')) {
      open.push(part);
      line += part;
    } else if (part === '</span>') {
      open.pop();
      line += part;
    } else {
      const [first, ...rest] = part.split('\n');
      line += first;
      for (const next of rest) {
        lines.push(line + '</span>'.repeat(open.length));
        line = open.join('') + next;
      }
    }
  }
  if (lines.length === 0 || line.replace(/<[^>]*>/g, '') !== '') lines.push(line);
  return lines;
}

/** `#L10` or `#L10-L20` as a range of line numbers (first, last), or null. */
export function lineRange(hash: string): [number, number] | null {
  const match = /^#L([1-9]\d{0,8})(?:-L([1-9]\d{0,8}))?$/.exec(hash);
  if (!match) return null;
  const a = Number(match[1]);
  const b = match[2] ? Number(match[2]) : a;
  return [Math.min(a, b), Math.max(a, b)];
}

export const lineHash = ([first, last]: [number, number]) => (first === last ? `#L${first}` : `#L${first}-L${last}`);

export type TreeFile = { path: string; name: string; size: number };
export type TreeFolder = { path: string; name: string; size: number; files: TreeFile[]; folders: TreeFolder[] };

/** A version's files as nested folders, each with its total size; folders and files sorted by name. */
export function fileTree(files: { path: string; size: number }[]): TreeFolder {
  const root: TreeFolder = { path: '', name: '', size: 0, files: [], folders: [] };
  const folders = new Map<string, TreeFolder>([['', root]]);
  const folderOf = (path: string): TreeFolder => {
    let folder = folders.get(path);
    if (!folder) {
      const slash = path.lastIndexOf('/');
      folder = { path, name: path.slice(slash + 1), size: 0, files: [], folders: [] };
      folderOf(slash < 0 ? '' : path.slice(0, slash)).folders.push(folder);
      folders.set(path, folder);
    }
    return folder;
  };
  for (const file of files) {
    const slash = file.path.lastIndexOf('/');
    const dir = slash < 0 ? '' : file.path.slice(0, slash);
    folderOf(dir).files.push({ path: file.path, name: file.path.slice(slash + 1), size: file.size });
    for (let at = dir; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
      folders.get(at)!.size += file.size;
      if (!at) break;
    }
  }
  for (const folder of folders.values()) {
    folder.folders.sort((a, b) => (a.name < b.name ? -1 : 1));
    folder.files.sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  return root;
}

const README_NAMES = ['README.md', 'readme.md', 'README'];

/** The README shown under a folder's list, as on GitHub: README.md first, then readme.md, README and other spellings. */
export function readmeOf<T extends { path: string }>(files: T[]): T | null {
  const name = (file: T) => file.path.slice(file.path.lastIndexOf('/') + 1);
  const rank = (file: T) => {
    const known = README_NAMES.indexOf(name(file));
    return known < 0 ? README_NAMES.length : known;
  };
  return files.filter((file) => /^readme(\.(md|markdown|txt))?$/i.test(name(file))).sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

/** The folder at `path` ("" for the root) in a tree, or null. */
export function folderAt(root: TreeFolder, path: string): TreeFolder | null {
  let folder: TreeFolder | undefined = root;
  for (const name of path ? path.split('/') : []) folder = folder?.folders.find((f) => f.name === name);
  return folder ?? null;
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
  const url = new URL(target, `http://space.invalid/${encodePath(dir)}`);
  const path = decodeURIComponent(url.pathname.slice(1));
  return { path, hash: url.hash, query: url.search };
}

/** A file's path as URL segments, each escaped, its slashes kept. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

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
  return `${ctx.siteUrl}${encodePath(resolved.path)}?v=${ctx.version}`;
}
