// Line diffs of text files between two versions, for the history page:
// common lines at both ends are skipped, the middle is compared by longest
// common subsequence, and the result is cut into hunks with a few lines of
// context, like `diff -u`.

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string; old: number | null; new: number | null };
export type Hunk = { lines: DiffLine[] };

/** Middles longer than this many cells (lines × lines) are not compared line by line. */
const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n * m > MAX_CELLS) return null;
  // lcs[i][j]: longest common subsequence of a[start+i..endA) and b[start+j..endB).
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[start + i] === b[start + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: DiffLine[] = [];
  for (let k = 0; k < start; k++) out.push({ kind: 'same', text: a[k], old: k + 1, new: k + 1 });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      out.push({ kind: 'same', text: a[start + i], old: start + i + 1, new: start + j + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removed lines before added ones, as `diff -u` shows a replacement.
      out.push({ kind: 'removed', text: a[start + i], old: start + i + 1, new: null });
      i++;
    } else {
      out.push({ kind: 'added', text: b[start + j], old: null, new: start + j + 1 });
      j++;
    }
  }
  for (let k = 0; k < a.length - endA; k++) out.push({ kind: 'same', text: a[endA + k], old: endA + k + 1, new: endB + k + 1 });
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
