// File paths inside a version: relative, "/"-separated, normalised to Unicode
// NFC. Refused (bad_request, naming the path): absolute paths, "..", empty
// segments, backslashes, control characters, segments over 255 bytes and paths
// over 1024 characters. "." segments and a leading "./" are dropped.
import { ApiError } from '../core/errors.ts';

export const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_BYTES = 255;
// C0 and C1 control characters and DEL.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function invalid(raw: string, why: string): never {
  throw new ApiError('bad_request', `Invalid file path ${JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw)}: ${why}.`);
}

export function normalizePath(raw: string): string {
  if (raw.length === 0) invalid(raw, 'it is empty');
  if (raw.length > MAX_PATH_LENGTH) invalid(raw, `it is longer than ${MAX_PATH_LENGTH} characters`);
  if (CONTROL.test(raw)) invalid(raw, 'it contains a control character');
  if (raw.includes('\\')) invalid(raw, 'use "/" to separate folders, not "\\"');
  if (raw.startsWith('/')) invalid(raw, 'it must be relative, not start with "/"');
  const segments: string[] = [];
  for (const segment of raw.normalize('NFC').split('/')) {
    if (segment === '.') continue;
    if (segment === '') invalid(raw, 'it has an empty segment ("//" or a trailing "/")');
    if (segment === '..') invalid(raw, '".." is not allowed');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) invalid(raw, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    segments.push(segment);
  }
  if (segments.length === 0) invalid(raw, 'it names no file');
  return segments.join('/');
}
