// The stylesheet goes through the build's CSS pipeline (Tailwind, then Lightning CSS
// minifying) without a warning: `npm start`'s first build prints each one, and a
// newcomer reads it as an error.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import tailwind from '@tailwindcss/postcss';
import postcss from 'postcss';
import { describe, expect, it, vi } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('the global stylesheet', () => {
  it('is optimised for production without a warning', async () => {
    const from = path.join(root, 'app/globals.css');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const result = await postcss([tailwind({ base: root, optimize: { minify: true } })]).process(await readFile(from, 'utf8'), { from });
      expect(result.css).toContain('.markdown');
      expect(result.warnings().map((w) => w.text)).toEqual([]);
      expect(warn.mock.calls.map((args) => args.join(' '))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});
