import { mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFiles } from '../../cli/push/hash.ts';
import { walk } from '../../cli/push/walk.ts';

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'atrium-walk-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  return root;
}

describe('the files a push sends', () => {
  it('skips dotfiles except .well-known, and what .atriumignore excludes', async () => {
    const root = await tree({
      'index.html': 'hi',
      'css/site.css': 'body{}',
      '.env': 'SECRET=1',
      '.git/config': '[core]',
      '.well-known/security.txt': 'Contact: x',
      'debug.log': 'noise',
      'drafts/a.md': 'draft',
      'drafts/keep.md': 'keep',
      '.atriumignore': '*.log\ndrafts/*\n!drafts/keep.md\n',
    });
    const { files } = await walk(root);
    expect(files.map((f) => f.path).sort()).toEqual(['.well-known/security.txt', 'css/site.css', 'drafts/keep.md', 'index.html']);
  });

  it('follows links inside the folder, reports links that leave it, and survives link loops', async () => {
    const root = await tree({ 'docs/a.txt': 'a' });
    const outside = await tree({ 'secret.txt': 's' });
    await symlink(path.join(root, 'docs'), path.join(root, 'mirror'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'leak.txt'));
    await symlink('..', path.join(root, 'docs', 'up'));
    const { files, outsideLinks } = await walk(root);
    expect(files.map((f) => f.path).sort()).toEqual(['docs/a.txt', 'mirror/a.txt']);
    expect(outsideLinks).toEqual(['leak.txt']);
  });
});

describe('hashing', () => {
  it('hashes with SHA-256, and an unchanged re-push hashes nothing', async () => {
    const root = await tree({ 'a.txt': 'hello', 'b.txt': 'world' });
    const { files } = await walk(root);
    let told = 0;
    const first = await hashFiles(root, files, () => told++);
    expect(first.hashes.get('a.txt')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(first.read).toBe(2);
    expect(told).toBe(2);

    expect((await hashFiles(root, (await walk(root)).files, () => {})).read).toBe(0);

    await writeFile(path.join(root, 'a.txt'), 'HELLO');
    await utimes(path.join(root, 'a.txt'), new Date(), new Date(Date.now() + 5000));
    const again = await hashFiles(root, (await walk(root)).files, () => {});
    expect(again.read).toBe(1);
    expect(again.hashes.get('a.txt')).toBe('3733cd977ff8eb18b987357e22ced99f46097f31ecb239e878ae63760e83e4d5');
  });

  it('leaves the cache file alone when nothing changed, and forgets a file that went', async () => {
    const root = await tree({ 'a.txt': 'hello', 'b.txt': 'world' });
    const cacheFile = path.join(root, '.atrium', 'cache.json');
    await hashFiles(root, (await walk(root)).files, () => {});
    const long = new Date('2020-01-01T00:00:00Z');
    await utimes(cacheFile, long, long);
    await hashFiles(root, (await walk(root)).files, () => {});
    expect((await stat(cacheFile)).mtime).toEqual(long);
    await rm(path.join(root, 'b.txt'));
    expect((await hashFiles(root, (await walk(root)).files, () => {})).read).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).files)).toEqual(['a.txt']);
  });
});
