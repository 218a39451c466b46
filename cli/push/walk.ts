// Which files of a folder a push sends: everything but dotfiles (except
// .well-known) and what .atriumignore excludes (gitignore syntax). Symbolic
// links are followed while they stay inside the folder; links that point
// outside it are not followed, and are reported.
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

export type LocalFile = { path: string; absolute: string; size: number; mtimeMs: number };
export type WalkResult = { files: LocalFile[]; outsideLinks: string[] };

function isHidden(name: string): boolean {
  return name.startsWith('.') && name !== '.well-known';
}

export async function walk(root: string): Promise<WalkResult> {
  const base = await realpath(root);
  const rules = ignore();
  const ignoreFile = await readFile(path.join(base, '.atriumignore'), 'utf8').catch(() => '');
  rules.add(ignoreFile);
  const files: LocalFile[] = [];
  const outsideLinks: string[] = [];

  const inside = (real: string) => real === base || real.startsWith(base + path.sep);

  // `ancestors` holds the real paths of the folders above: a link back to one is a loop.
  async function visit(dir: string, rel: string, ancestors: Set<string>) {
    const real = await realpath(dir);
    if (ancestors.has(real)) return;
    const within = new Set(ancestors).add(real);
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (isHidden(entry.name)) continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      const absolute = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => null);
        if (!target || !inside(target)) {
          outsideLinks.push(relPath);
          continue;
        }
        const info = await stat(target);
        isDir = info.isDirectory();
        isFile = info.isFile();
      }
      if (isDir) {
        if (!rules.ignores(`${relPath}/`)) await visit(absolute, relPath, within);
      } else if (isFile && !rules.ignores(relPath)) {
        const info = await stat(absolute);
        files.push({ path: relPath, absolute, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  }

  await visit(base, '', new Set());
  return { files, outsideLinks };
}
