// The stylesheet goes through the build's CSS pipeline (Tailwind, then Lightning CSS
// minifying) without a warning: `npm start`'s first build prints each one, and a
// newcomer reads it as an error. Its colour tokens pass WCAG AA in both schemes,
// and the pages' text uses them rather than a palette colour without a dark value.
import { readdir, readFile } from 'node:fs/promises';
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

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The `--color-*: #rrggbb` declarations of a block of CSS. */
const tokens = (css: string) => Object.fromEntries([...css.matchAll(/--color-([\w-]+):\s*(#[0-9a-f]{6})/g)].map(([, name, value]) => [name, value]));

describe('the colour tokens', () => {
  it('give text, links and status text at least 4.5:1 on every surface, light and dark', async () => {
    const css = await readFile(path.join(root, 'app/globals.css'), 'utf8');
    const light = tokens(css.slice(css.indexOf('@theme'), css.indexOf('}', css.indexOf('@theme'))));
    const dark = { ...light, ...tokens(css.slice(css.indexOf('@media (prefers-color-scheme: dark)'))) };
    // The page backgrounds (slate-50, slate-950), cards and the panels in them (slate-100, slate-800).
    const schemes = [
      { name: 'light', colours: light, surfaces: ['#f8fafc', '#f1f5f9', light.surface, light['brand-soft']] },
      { name: 'dark', colours: dark, surfaces: ['#020617', '#1e293b', dark.surface, dark['brand-soft']] },
    ];
    const ratios = schemes.flatMap(({ name, colours, surfaces }) =>
      ['muted', 'link', 'danger', 'success'].flatMap((text) => surfaces.map((surface) => ({ pair: `${name} ${text} ${colours[text]} on ${surface}`, ratio: Math.round(contrast(colours[text], surface) * 100) / 100 }))),
    );
    expect(ratios.filter(({ ratio }) => !(ratio >= 4.5))).toEqual([]);
    // White on the brand fill (buttons), the same in both schemes.
    expect(contrast('#ffffff', light.brand)).toBeGreaterThanOrEqual(4.5);
  });

  it('are what pages colour text and links with: no palette colour that has no dark value', async () => {
    const listed = await Promise.all(['app', 'components', 'lib'].map(async (dir) => (await readdir(path.join(root, dir), { recursive: true })).map((f) => path.join(dir, f))));
    const files = listed.flat().filter((f) => /\.tsx?$/.test(f) && !f.startsWith('lib/db/generated'));
    const raw = /(?<![\w:-])(?:text-brand|text-slate-[456]00|bg-white)(?![\w/-])/;
    const found: string[] = [];
    for (const file of files) {
      (await readFile(path.join(root, file), 'utf8')).split('\n').forEach((line, i) => {
        if (raw.test(line)) found.push(`${file}:${i + 1}: ${line.match(raw)![0]}`);
      });
    }
    expect(found, 'use text-muted, text-link and bg-surface (app/globals.css)').toEqual([]);
  });
});
