import { describe, expect, it } from 'vitest';
import { hunks, lineDiff, splitRows } from '../../lib/web/line-diff.ts';

describe('line diffs for the history page', () => {
  it('marks the lines that were added, removed and kept, with their numbers', () => {
    const lines = lineDiff('a\nb\nc\nd', 'a\nc\nd\ne');
    expect(lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(['sa', 'rb', 'sc', 'sd', 'ae']);
    expect(lines.find((l) => l.text === 'e')).toMatchObject({ old: null, new: 4 });
    expect(lines.find((l) => l.text === 'b')).toMatchObject({ old: 2, new: null });
  });

  it('cuts a long file into hunks with three lines of context', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 5\n', 'line five\n').replace('line 30\n', '');
    const cut = hunks(lineDiff(before, after));
    expect(cut).toHaveLength(2);
    expect(cut[0].lines.map((l) => l.text)).toEqual(['line 2', 'line 3', 'line 4', 'line 5', 'line five', 'line 6', 'line 7', 'line 8']);
    expect(cut[1].lines.filter((l) => l.kind !== 'same').map((l) => l.text)).toEqual(['line 30']);
  });

  it('says nothing changed for equal texts, and shows two unrelated long texts as all removed, then all added', () => {
    expect(hunks(lineDiff('same\ntext', 'same\ntext'))).toEqual([]);
    const big = (tag: string) => Array.from({ length: 3000 }, (_, i) => `${tag}${i}`).join('\n');
    const lines = lineDiff(big('a'), big('b'));
    expect(lines.map((l) => l.kind)).toEqual([...Array(3000).fill('removed'), ...Array(3000).fill('added')]);
    expect(lines.at(-1)).toMatchObject({ text: 'b2999', old: null, new: 3000 });
  });

  it('pairs removed lines with the added lines that replace them, side by side', () => {
    const rows = splitRows(lineDiff('a\nb\nc\nd', 'a\nB\nB2\nd\ne'));
    const side = (l: { kind: string; text: string } | null) => (l ? `${l.kind[0]}${l.text}` : '-');
    expect(rows.map((r) => `${side(r.left)} ${side(r.right)}`)).toEqual(['sa sa', 'rb aB', 'rc aB2', 'sd sd', '- ae']);
  });
});
