// Placing a quote in a file's text, as Hypothesis does (its match-quote.ts):
// approximate matches of the quote (Myers' algorithm, from approx-string-match)
// are scored by how well the quote, the text before and after it, and the old
// position agree, and the best one wins. Used when a thread is made (to place
// the selection in the file) and when its file changed in a later version (to
// follow the text, or to say it is gone).
import search from 'approx-string-match';

export type Selector = { exact: string; prefix?: string; suffix?: string; start?: number; end?: number };
export type Placed = { exact: string; prefix: string; suffix: string; start: number; end: number };

/** Context kept on each side of a quote, for re-anchoring later. */
export const CONTEXT_CHARS = 32;

/**
 * A match may differ from the quote by this share of its length at most;
 * beyond it the text counts as gone. Hypothesis allows half; a third keeps a
 * deleted sentence from landing on some other sentence of similar length,
 * while leaving room for the markup a selection in a rendered page leaves out.
 */
const MAX_ERROR_SHARE = 1 / 3;

function similarity(text: string, wanted: string): number {
  if (wanted.length === 0) return 1;
  if (text.length === 0) return 0;
  const matches = search(text, wanted, wanted.length);
  return matches.length ? 1 - matches[0].errors / wanted.length : 0;
}

type Candidate = { start: number; end: number; errors: number };

function exactCandidates(text: string, quote: string): Candidate[] {
  const found: Candidate[] = [];
  for (let at = text.indexOf(quote); at !== -1 && found.length < 1000; at = text.indexOf(quote, at + 1)) found.push({ start: at, end: at + quote.length, errors: 0 });
  return found;
}

/** Where `selector` best fits in `text`, or null when its text is not there any more. */
export function locate(text: string, selector: Selector): Placed | null {
  const quote = selector.exact;
  if (!quote) return null;
  // Unchanged text: the old position still holds the quote.
  if (selector.start !== undefined && text.slice(selector.start, selector.start + quote.length) === quote) {
    const exact = exactCandidates(text, quote);
    if (exact.length === 1 || (!selector.prefix && !selector.suffix)) return placed(text, selector.start, selector.start + quote.length);
  }
  let candidates = exactCandidates(text, quote);
  if (!candidates.length) {
    const maxErrors = Math.min(256, Math.floor(quote.length * MAX_ERROR_SHARE));
    candidates = search(text, quote, maxErrors);
  }
  if (!candidates.length) return null;
  const score = (c: Candidate) => {
    const quoteScore = 1 - c.errors / quote.length;
    const prefixScore = selector.prefix ? similarity(text.slice(Math.max(0, c.start - selector.prefix.length), c.start), selector.prefix) : 1;
    const suffixScore = selector.suffix ? similarity(text.slice(c.end, c.end + selector.suffix.length), selector.suffix) : 1;
    const positionScore = selector.start !== undefined && text.length ? 1 - Math.abs(c.start - selector.start) / text.length : 1;
    return (50 * quoteScore + 20 * prefixScore + 20 * suffixScore + 2 * positionScore) / 92;
  };
  let best = candidates[0];
  let bestScore = -1;
  for (const candidate of candidates.slice(0, 1000)) {
    const s = score(candidate);
    if (s > bestScore) [best, bestScore] = [candidate, s];
  }
  return placed(text, best.start, best.end);
}

function placed(text: string, start: number, end: number): Placed {
  return { exact: text.slice(start, end), prefix: text.slice(Math.max(0, start - CONTEXT_CHARS), start), suffix: text.slice(end, end + CONTEXT_CHARS), start, end };
}

// Listing threads re-anchors each one in its file's current text; the answer
// depends only on the text (by hash) and the stored selector, so it is kept.
const memo = new Map<string, Placed | null>();
const MEMO_SIZE = 5000;

export function locateCached(textHash: string, text: string, selector: Selector): Placed | null {
  const key = `${textHash}\u0000${selector.start}\u0000${selector.prefix}\u0000${selector.exact}\u0000${selector.suffix}`;
  if (memo.has(key)) return memo.get(key)!;
  const result = locate(text, selector);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, result);
  return result;
}
