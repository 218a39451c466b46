// One line diff for every comparison the product shows (a page's versions in a
// room, a file's versions in a space): Myers' algorithm over lines.

export type DiffLine = { op: 'same' | 'add' | 'remove'; text: string };

/**
 * Myers' diff of two texts' lines: O((n + m) d) for d differing lines. Beyond
 * MAX_EDITS differences (two unrelated long pages) the rest is shown as all
 * removed, then all added, which is still a correct diff.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common ends first: most changes touch a small part of a page.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  const middle = myers(a.slice(start, endA), b.slice(start, endB));
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ op: 'same', text }));
  return [...same(a.slice(0, start)), ...middle, ...same(a.slice(endA))];
}

const MAX_EDITS = 1000;

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d);
    }
  }
  return [...a.map((text): DiffLine => ({ op: 'remove', text })), ...b.map((text): DiffLine => ({ op: 'add', text }))];
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number, last: number): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) out.push({ op: 'same', text: a[--x] }), y--;
    if (x === prevX) out.push({ op: 'add', text: b[--y] });
    else out.push({ op: 'remove', text: a[--x] });
  }
  while (x > 0 && y > 0) out.push({ op: 'same', text: a[--x] }), y--;
  return out.reverse();
}
