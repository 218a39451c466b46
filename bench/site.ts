// The site the publishing benchmarks push: many small files and a few large
// ones in nested folders, like a built static site. Made once per size and
// kept under .atrium/bench, since writing 100 MB takes a while.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { workDir } from './server.ts';

const EXTENSIONS = ['html', 'css', 'js', 'json', 'svg', 'png', 'woff2', 'txt'];

// Sizes in KB by share of files: about 10 KB on average, so 10,000 files are about 100 MB.
function sizeFor(i: number): number {
  const r = (i * 7919) % 1000;
  const [min, max] = r < 650 ? [1, 4] : r < 930 ? [4, 16] : r < 995 ? [16, 64] : [256, 1024];
  return Math.round((min + ((i * 104729) % 1000) / 1000 * (max - min)) * 1024);
}

export type Site = { dir: string; files: number; bytes: number };

const INDEX = '<h1>Benchmark site</h1>';

export async function site(files: number): Promise<Site> {
  const dir = path.join(workDir, `site-${files}`);
  let bytes = INDEX.length;
  for (let i = 0; i < files; i++) bytes += sizeFor(i);
  const result = { dir, files: files + 1, bytes };
  if (existsSync(path.join(dir, '.complete'))) return result;
  await rm(dir, { recursive: true, force: true });
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `section-${i % 50}`, `part-${i % 7}`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `file-${i}.${EXTENSIONS[i % EXTENSIONS.length]}`), randomBytes(sizeFor(i)));
  }
  await writeFile(path.join(dir, 'index.html'), INDEX);
  // Marks the site as whole (dotfiles are not pushed).
  await writeFile(path.join(dir, '.complete'), '');
  return result;
}
