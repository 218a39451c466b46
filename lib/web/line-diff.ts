// Line diffs of text files between two versions, for the history page: the
// product's one line diff (lib/core/line-diff.ts) with each line's numbers, cut
// into hunks with a few lines of context, like `diff -u`.
import { lineDiff as diffLines } from '../core/line-diff.ts';

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string; old: number | null; new: number | null };
export type Hunk = { lines: DiffLine[] };

/** Every line of both texts in order, numbered; in each change, the removed lines before the added ones, as `diff -u` shows a replacement. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  let old = 0;
  let now = 0;
  let added: DiffLine[] = [];
  for (const line of diffLines(before, after)) {
    if (line.op === 'remove') {
      out.push({ kind: 'removed', text: line.text, old: ++old, new: null });
      continue;
    }
    if (line.op === 'add') {
      added.push({ kind: 'added', text: line.text, old: null, new: ++now });
      continue;
    }
    out.push(...added);
    added = [];
    out.push({ kind: 'same', text: line.text, old: ++old, new: ++now });
  }
  out.push(...added);
  return out;
}

/** The changed lines with `context` unchanged lines around each change. */
export function hunks(lines: DiffLine[], context = 3): Hunk[] {
  const keep = new Array(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const result: Hunk[] = [];
  let current: DiffLine[] | null = null;
  lines.forEach((line, index) => {
    if (keep[index]) (current ??= []).push(line);
    else if (current) {
      result.push({ lines: current });
      current = null;
    }
  });
  if (current) result.push({ lines: current });
  return result;
}

export type SplitRow = { left: DiffLine | null; right: DiffLine | null };

/**
 * A hunk side by side: kept lines on both sides, and each run of removed
 * lines beside the run of added lines that follows it (a replacement), the
 * shorter side padded with blanks.
 */
export function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].kind === 'same') {
      rows.push({ left: lines[i], right: lines[i] });
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i].kind === 'removed') removed.push(lines[i++]);
    while (i < lines.length && lines[i].kind === 'added') added.push(lines[i++]);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}
