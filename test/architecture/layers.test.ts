// The layers of the code (docs/architecture.md, "Layers"). A folder imports
// only folders on layers below its own. An import of a folder on the same
// layer or a higher one is a BACK-ARROW: this test fails on every one, and on
// every pair of folders that import each other.
//
// The graph is of folders: at the top level app/, cli/, components/, server/,
// realtime/ and lib/; inside lib/ each folder, and each file directly under
// lib/, is one (Prisma's generated client, lib/db/generated, stands apart from
// lib/db: it imports nothing of ours). An arrow A -> B means some file of A
// imports some file of B; type-only imports count too, since a type is as much
// a folder's vocabulary as a function is. A new folder fails the test until
// it is placed on a layer.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedFile, importsOf, root } from './imports.ts';

/** Top to bottom; folders on one line are peers and do not import each other. */
const TOP_LAYERS = [['app', 'cli'], ['components'], ['server'], ['realtime'], ['lib']];

const LIB_LAYERS = [
  ['lib/apps'],
  ['lib/comments', 'lib/search', 'lib/spacedb', 'lib/web'],
  ['lib/ops', 'lib/rooms', 'lib/spaces'],
  ['lib/storage', 'lib/workspaces'],
  ['lib/billing', 'lib/webhooks'],
  ['lib/audit', 'lib/auth', 'lib/notifications'],
  ['lib/access', 'lib/accounts', 'lib/jobs'],
  ['lib/db'],
  ['lib/ai', 'lib/core'],
  ['lib/log.ts', 'lib/mail'],
  ['lib/client', 'lib/config.ts'],
  ['lib/db/generated', 'lib/format.ts', 'lib/ids.ts', 'lib/lru.ts', 'lib/pool.ts', 'lib/registrable-domain.ts', 'lib/schemas', 'lib/secrets.ts'],
];

const TOP = ['app', 'cli', 'components', 'server', 'realtime', 'lib'];
const SOURCE = /\.(ts|tsx|mts)$/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && SOURCE.test(e.name)).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** The lib/ folder (or file) a file belongs to; null outside lib/. */
function libUnit(file: string): string | null {
  if (!file.startsWith('lib/')) return null;
  if (file.startsWith('lib/db/generated/')) return 'lib/db/generated';
  return file.split('/').slice(0, 2).join('/');
}

type Arrow = { from: string; to: string; where: string };

/** Every arrow between two different units, with one import that makes it. */
async function folderArrows(unitOf: (file: string) => string | null): Promise<Arrow[]> {
  const arrows = new Map<string, Arrow>();
  for (const top of TOP) {
    for (const file of await sourceFiles(top)) {
      const from = unitOf(file);
      if (!from || from === 'lib/db/generated') continue;
      for (const specifier of importsOf(await readFile(path.join(root, file), 'utf8'), { types: true })) {
        const target = importedFile(path.join(root, file), specifier);
        const to = target && unitOf(path.relative(root, target).split(path.sep).join('/'));
        if (to && to !== from && !arrows.has(`${from} -> ${to}`)) arrows.set(`${from} -> ${to}`, { from, to, where: `${file} imports ${specifier}` });
      }
    }
  }
  return [...arrows.values()];
}

const topUnit = (file: string) => TOP.find((top) => file.startsWith(`${top}/`)) ?? null;

/** The arrows that do not go down, each as "A -> B (file imports specifier)". */
function backArrows(arrows: Arrow[], layers: string[][]): string[] {
  const layerOf = new Map(layers.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));
  return arrows.filter(({ from, to }) => layerOf.get(to)! <= layerOf.get(from)!).map(({ from, to, where }) => `${from} -> ${to} (${where})`);
}

function mutualPairs(arrows: Arrow[]): string[] {
  const keys = new Set(arrows.map(({ from, to }) => `${from} -> ${to}`));
  return arrows.filter(({ from, to }) => from < to && keys.has(`${to} -> ${from}`)).map(({ from, to }) => `${from} <-> ${to}`);
}

function unplaced(arrows: Arrow[], units: string[], layers: string[][]): string[] {
  const placed = new Set(layers.flat());
  return [...new Set([...units, ...arrows.flatMap(({ from, to }) => [from, to])])].filter((unit) => !placed.has(unit)).sort();
}

describe('the layers of the code', () => {
  it('reads type-only imports too', () => {
    expect(importsOf(`import type { A } from './a.ts';\nimport { b } from './b.ts';`, { types: true })).toEqual(['./a.ts', './b.ts']);
  });

  it('finds an arrow that runs back up, and a pair that imports each other', () => {
    const arrows = [
      { from: 'lib/db', to: 'lib/core', where: 'down' },
      { from: 'lib/core', to: 'lib/db', where: 'up' },
      { from: 'lib/ai', to: 'lib/core', where: 'sideways' },
    ];
    expect(backArrows(arrows, LIB_LAYERS)).toEqual(['lib/core -> lib/db (up)', 'lib/ai -> lib/core (sideways)']);
    expect(mutualPairs(arrows)).toEqual(['lib/core <-> lib/db']);
  });

  it('top level: every folder placed, no back-arrow, no pair importing each other', async () => {
    const arrows = await folderArrows(topUnit);
    expect(unplaced(arrows, TOP, TOP_LAYERS), 'place each top-level folder on a layer').toEqual([]);
    expect(backArrows(arrows, TOP_LAYERS), 'imports that run back up the layers (docs/architecture.md, "Layers")').toEqual([]);
    expect(mutualPairs(arrows)).toEqual([]);
  });

  it('lib/: every folder placed, no back-arrow, no pair importing each other', async () => {
    const files = await sourceFiles('lib');
    const arrows = await folderArrows(libUnit);
    const units = [...new Set(files.map((file) => libUnit(file)!))];
    expect(unplaced(arrows, units, LIB_LAYERS), 'place each lib/ folder on a layer').toEqual([]);
    expect(backArrows(arrows, LIB_LAYERS), 'imports that run back up the layers (docs/architecture.md, "Layers")').toEqual([]);
    expect(mutualPairs(arrows)).toEqual([]);
  });
});
