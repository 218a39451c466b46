// Byte ranges of stored files (RFC 9110 §14): one range per request. A
// header this does not understand, or one asking for several ranges, is
// answered with the whole file, as the RFC allows and as most static hosts do.
import type { ByteSpan } from '../../lib/storage/index.ts';

/**
 * The span a Range header asks of a file of `size` bytes: `a-b`, `a-` or the
 * last n bytes (`-n`); 'unsatisfiable' when it starts past the end (416);
 * null for the whole file (no header, a malformed one, several ranges).
 */
export function askedSpan(range: string | null, size: number): ByteSpan | 'unsatisfiable' | null {
  const match = range ? /^bytes=(\d*)-(\d*)$/i.exec(range) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === '') {
    if (last === '') return null;
    const length = Number(last);
    return length === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  // "5-2" is no range at all: the header is ignored.
  if (end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/**
 * Whether If-Range lets a range be answered: only when it names the current
 * ETag exactly. A date cannot be checked (no Last-Modified is sent), and a
 * weak tag never matches, so both get the whole file.
 */
export function rangeStillValid(ifRange: string | null, etag: string): boolean {
  return ifRange === null || ifRange.trim() === etag;
}
