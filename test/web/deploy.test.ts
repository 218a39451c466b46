import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { siteFiles, type SiteFile } from '../../lib/web/deploy.ts';

const file = (path: string, text = path): SiteFile => ({ path, blob: new Blob([text]) });
const zip = (name: string, files: Record<string, string>): SiteFile => ({ path: name, blob: new Blob([zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)])))]) });
const paths = (files: SiteFile[]) => files.map((f) => f.path).sort();

describe('what a drop publishes', () => {
  it('makes a single top folder the root, as a dropped dist/ is meant', async () => {
    expect(paths(await siteFiles([file('dist/index.html'), file('dist/assets/app.css')]))).toEqual(['assets/app.css', 'index.html']);
    // Only one level: dist/site/ stays a folder of the site.
    expect(paths(await siteFiles([file('dist/site/index.html')]))).toEqual(['site/index.html']);
    expect(paths(await siteFiles([file('index.html'), file('assets/app.css')]))).toEqual(['assets/app.css', 'index.html']);
  });

  it('leaves dotfiles and __MACOSX out but keeps .well-known, as atrium push does', async () => {
    const picked = [file('site/index.html'), file('site/.DS_Store'), file('site/.git/HEAD'), file('site/.well-known/security.txt'), file('__MACOSX/site/._index.html')];
    expect(paths(await siteFiles(picked))).toEqual(['.well-known/security.txt', 'index.html']);
  });

  it('unpacks a .zip, with or without a folder inside', async () => {
    const wrapped = await siteFiles([zip('site.zip', { 'public/index.html': '<h1>Hi</h1>', 'public/css/a.css': 'a{}', 'public/.DS_Store': 'x', '__MACOSX/public/._index.html': 'x' })]);
    expect(paths(wrapped)).toEqual(['css/a.css', 'index.html']);
    expect(await wrapped.find((f) => f.path === 'index.html')!.blob.text()).toBe('<h1>Hi</h1>');
    expect(paths(await siteFiles([zip('flat.ZIP', { 'index.html': 'x', 'about.html': 'y' })]))).toEqual(['about.html', 'index.html']);
    // Among other files, a .zip is one file of the site.
    expect(paths(await siteFiles([file('a.zip'), file('index.html')]))).toEqual(['a.zip', 'index.html']);
  });

  it('says when a .zip cannot be read', async () => {
    await expect(siteFiles([file('broken.zip', 'not a zip')])).rejects.toThrow(/broken\.zip cannot be read as a zip file/);
  });
});
