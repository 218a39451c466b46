import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESERVED_HANDLES } from '@/lib/accounts/handles.ts';
import { HANDLE_PATTERN } from '@/lib/schemas/common.ts';

const APP = path.resolve(import.meta.dirname, '../../app');

/** First path segments the app serves: app/<name> and app/(group)/<name>. */
async function topLevelNames(): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(APP, { withFileTypes: true })) {
    if (/^\(.+\)$/.test(entry.name)) {
      for (const inner of await readdir(path.join(APP, entry.name), { withFileTypes: true })) if (inner.isDirectory()) names.push(inner.name);
    } else if (entry.isDirectory()) {
      names.push(entry.name);
    }
  }
  return names;
}

describe('reserved handles', () => {
  it('include every top-level route and page a handle could be mistaken for', async () => {
    const names = (await topLevelNames()).map((n) => n.replace(/\.json$/, '')).filter((n) => HANDLE_PATTERN.test(n));
    expect(names).toEqual(expect.arrayContaining(['v1', 'signin', 'device', 'settings']));
    for (const name of names) expect(RESERVED_HANDLES.has(name), name).toBe(true);
  });
});
