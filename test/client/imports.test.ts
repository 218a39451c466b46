// lib/schemas and lib/client are loaded by the CLI bundle and by the browser:
// walking their imports, nothing may reach Next, React, Prisma, the database,
// the server, or (for the client) a Node built-in a browser does not have.
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedFile, importsOf, root } from '../architecture/imports.ts';

/** Files reached from `entries` through relative imports, and the bare specifiers they import. */
async function walk(entries: string[]): Promise<{ files: Set<string>; bare: Map<string, string> }> {
  const files = new Set<string>();
  const bare = new Map<string, string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importsOf(await readFile(file, 'utf8'))) {
      const target = importedFile(file, specifier);
      if (target) queue.push(target);
      else bare.set(specifier, path.relative(root, file));
    }
  }
  return { files, bare };
}

const forbiddenFile = (file: string) => {
  const rel = path.relative(root, file).split(path.sep).join('/');
  return rel.startsWith('lib/db/') || rel.startsWith('server/') || rel.startsWith('app/') || rel.startsWith('components/');
};
const forbiddenPackage = (name: string) => /^(next|react|react-dom|next-auth|@prisma\/.*|prisma|pg|ioredis)(\/|$)/.test(name);
const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);

async function sources(dir: string) {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(path.join(root, dir))).filter((f) => f.endsWith('.ts')).map((f) => path.join(root, dir, f));
}

describe('the import graph of lib/schemas and lib/client', () => {
  it('finds runtime imports and skips type-only ones', () => {
    expect(importsOf(`import { z } from 'zod';\nimport type { X } from 'next';\nexport { y } from './y.ts';\nconst m = await import("node:fs");`)).toEqual(['zod', './y.ts', 'node:fs']);
  });

  it('lib/schemas reaches no framework, database, server or Node built-in', async () => {
    const { files, bare } = await walk(await sources('lib/schemas'));
    expect([...files].filter(forbiddenFile).map((f) => path.relative(root, f))).toEqual([]);
    const bad = [...bare].filter(([name]) => forbiddenPackage(name) || isBuiltin(name));
    expect(bad, 'lib/schemas must stay loadable in a browser and in the CLI bundle').toEqual([]);
  });

  it('lib/client imports only lib/schemas and zod, nothing Node-only', async () => {
    const { files, bare } = await walk(await sources('lib/client'));
    const outside = [...files].map((f) => path.relative(root, f).split(path.sep).join('/')).filter((f) => !f.startsWith('lib/client/') && !f.startsWith('lib/schemas/'));
    expect(outside).toEqual([]);
    expect([...bare.keys()].filter((name) => name !== 'zod')).toEqual([]);
  });
});
