import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FileTree } from '@/components/spaces/file-tree.tsx';
import { FileViewer } from '@/components/spaces/file-viewer.tsx';
import { fileTree, fileView, folderAt, htmlLines, lineHash, lineRange, readmeOf, typeLabel } from '@/lib/web/file-view.ts';

const space = { id: 'sp_x', url: 'http://localhost/s/sp_x/', latestVersion: 3 };
/** A file of version 2 of the space, as readFile answers it. */
const stored = (path: string, content: string, contentType = 'text/plain', text = true) => ({
  versionNumber: 2,
  file: { path, sha256: '0'.repeat(64), size: content.length, contentType, text, truncated: false },
  content,
  rawUrl: `${space.url}${path}?v=2`,
});
const render = (path: string, content: string, contentType = 'text/plain') => renderToStaticMarkup(<FileViewer space={space} stored={stored(path, content, contentType)} />);

describe('showing published files, which are untrusted', () => {
  it('renders markdown without its raw HTML or script links', () => {
    const html = render('README.md', '# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) and [ok](https://example.com)', 'text/markdown');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.com"');
  });

  it("names a task list's checkboxes by their items, tight and loose, not by nested items", () => {
    const html = render('todo.md', '- [x] Write the plan\n- [ ] Ship *it*\n  - [ ] Tell people\n\n---\n\n- [ ] Loose one\n\n- [x] Loose two\n', 'text/markdown');
    const names = [...html.matchAll(/<input[^>]*>/g)].map(([input]) => input.match(/aria-label="([^"]*)"/)?.[1]);
    expect(names).toEqual(['Write the plan', 'Ship it', 'Tell people', 'Loose one', 'Loose two']);
  });

  it('highlights code from escaped text', () => {
    const view = fileView('app.js', 'text/javascript', true, 'const a = "</code><script>x</script>";');
    expect(view.kind).toBe('code');
    if (view.kind === 'code') {
      expect(view.language).toBe('js');
      expect(view.html).toContain('hljs-keyword');
      expect(view.html).not.toContain('<script>');
    }
    expect(render('notes.unknownext', '<b>bold</b>')).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('shows images by their URL and offers other binary files for download', () => {
    expect(fileView('logo.png', 'image/png', false, '').kind).toBe('image');
    expect(fileView('data.bin', 'application/octet-stream', false, '').kind).toBe('binary');
    expect(renderToStaticMarkup(<FileViewer space={space} stored={stored('data.bin', '', 'application/octet-stream', false)} />)).toContain('download it');
  });
});

describe('the file tree', () => {
  const files = [
    { path: 'index.html', size: 10 },
    { path: 'css/site.css', size: 100 },
    { path: 'css/print/a.css', size: 1000 },
    { path: 'img/logo.png', size: 5 },
  ];

  it('nests folders, sorted by name, each with the size of everything in it', () => {
    const root = fileTree(files);
    expect(root.size).toBe(1115);
    expect(root.folders.map((f) => [f.path, f.size])).toEqual([
      ['css', 1100],
      ['img', 5],
    ]);
    expect(root.files).toEqual([{ path: 'index.html', name: 'index.html', size: 10 }]);
    const css = folderAt(root, 'css')!;
    expect(css.files.map((f) => f.name)).toEqual(['site.css']);
    expect(folderAt(root, 'css/print')).toMatchObject({ name: 'print', size: 1000, files: [{ path: 'css/print/a.css' }] });
    expect(folderAt(root, 'nope')).toBeNull();
    expect(folderAt(root, '')).toBe(root);
  });

  it('opens the folders on the way to what is shown, and in a large version leaves the others out as links', () => {
    const tree = (whole: boolean) =>
      renderToStaticMarkup(<FileTree folder={fileTree(files)} shown="css/print/a.css" whole={whole} fileHref={(p) => `?path=${p}`} folderHref={(p) => `?dir=${p}`} />);
    const small = tree(true);
    expect(small).toMatch(/<details open="">.*css\/.*1\.1 KB/);
    expect(small).toContain('<details><summary');
    expect(small).toContain('href="?path=img/logo.png"');
    expect(small).toContain('aria-current="page"');
    const large = tree(false);
    expect(large).not.toContain('logo.png');
    expect(large).toContain('href="?dir=img"');
    expect(large).toContain('href="?path=css/print/a.css"');
  });

  it("finds a folder's README as GitHub does: README.md, then readme.md, then README", () => {
    const named = (...names: string[]) => names.map((path) => ({ path: `docs/${path}` }));
    expect(readmeOf(named('a.txt', 'README', 'readme.md', 'README.md'))?.path).toBe('docs/README.md');
    expect(readmeOf(named('README', 'readme.md'))?.path).toBe('docs/readme.md');
    expect(readmeOf(named('Readme.markdown', 'README'))?.path).toBe('docs/README');
    expect(readmeOf(named('Readme.markdown'))?.path).toBe('docs/Readme.markdown');
    expect(readmeOf(named('index.html', 'readme.html'))).toBeNull();
  });
});

describe('numbered lines', () => {
  it('cuts highlighted code into whole lines, reopening a span a line break crosses', () => {
    const view = fileView('a.js', 'text/javascript', true, '/* one\ntwo */\nconst a = 1;\n');
    if (view.kind !== 'code') throw new Error('not code');
    const lines = htmlLines(view.html);
    expect(lines).toEqual(['<span class="hljs-comment">/* one</span>', '<span class="hljs-comment">two */</span>', expect.stringContaining('<span class="hljs-keyword">const</span> a')]);
    expect(htmlLines('')).toEqual(['']);
    expect(htmlLines('a\n\nb')).toEqual(['a', '', 'b']);
  });

  it('reads and writes #L10 and #L10-L20, in either order', () => {
    expect(lineRange('#L10')).toEqual([10, 10]);
    expect(lineRange('#L20-L10')).toEqual([10, 20]);
    expect(lineRange('#L0')).toBeNull();
    expect(lineRange('#intro')).toBeNull();
    expect(lineHash([10, 10])).toBe('#L10');
    expect(lineHash([10, 20])).toBe('#L10-L20');
  });

  it('numbers the lines on the Files tab only, each an anchor to link to', () => {
    const numbered = renderToStaticMarkup(<FileViewer space={space} stored={stored('a.txt', 'x\n<y>\n')} lineLinks />);
    expect(numbered).toContain('id="L2" href="#L2"');
    expect(numbered).toContain('&lt;y&gt;');
    expect(numbered).not.toContain('id="L3"');
    expect(render('a.txt', 'x\ny')).not.toContain('id="L1"');
  });
});

describe('relative links in rendered markdown', () => {
  const md = (path: string, content: string) => render(path, content, 'text/markdown');

  it("resolves links against the file's folder, in the same space and version", () => {
    const html = md('README.md', '[about](about/index.html) [docs](docs/) [top](#top) [site](https://example.com/x)');
    expect(html).toContain('href="/spaces/sp_x?v=2&amp;path=about%2Findex.html"');
    expect(html).toContain('href="/spaces/sp_x?v=2&amp;dir=docs"');
    expect(html).toContain('href="#top"');
    expect(html).toContain('href="https://example.com/x"');
    const nested = md('guide/intro.md', '[next](../setup/run.md#step-2) [same](./more.md)');
    expect(nested).toContain('href="/spaces/sp_x?v=2&amp;path=setup%2Frun.md#step-2"');
    expect(nested).toContain('href="/spaces/sp_x?v=2&amp;path=guide%2Fmore.md"');
  });

  it('serves relative images from the published site at that version', () => {
    expect(md('guide/intro.md', '![chart](img/chart 1.png)'.replace(' 1', '%201'))).toContain('src="http://localhost/s/sp_x/guide/img/chart%201.png?v=2"');
  });
});

describe('the type shown with a file', () => {
  it('names the language of source files whatever media type their extension is registered as, else the media type', () => {
    expect(typeLabel('src/app.ts', 'video/mp2t', true)).toBe('TypeScript');
    expect(typeLabel('tools/run.py', 'application/octet-stream', true)).toBe('Python');
    expect(typeLabel('index.html', 'text/html; charset=utf-8', true)).toBe('HTML');
    expect(typeLabel('README.md', 'text/markdown; charset=utf-8', true)).toBe('text/markdown');
    // A real MPEG transport stream (an HLS segment) is not text: it keeps its media type.
    expect(typeLabel('video/seg-1.ts', 'video/mp2t', false)).toBe('video/mp2t');
    expect(typeLabel('photo.png', 'image/png', false)).toBe('image/png');
  });
});
