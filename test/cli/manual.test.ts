import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { manual } from '../../scripts/cli-manual.ts';

it('docs/cli.md is the CLI\'s own help, up to date (node scripts/cli-manual.ts writes it)', async () => {
  expect(await readFile('docs/cli.md', 'utf8')).toBe(manual());
});

it('every command has an example in its help', () => {
  const sections = manual().split('\n## ').slice(2);
  for (const section of sections) expect(section, section.split('\n')[0]).toMatch(/Examples?:\n\s+\$ atrium /);
});
