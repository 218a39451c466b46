// What a space database file must be after a change, as recorded with it
// (SpaceDbChange), at a cost in proportion to the change:
// - a change a write made (pagesSha): the file has the change's page count,
//   its pages at the change's page numbers hash to the recorded checksum, and
//   its header's user_version holds the change's seq (each write stamps it,
//   worker.ts), so a file that missed changes fails even where they wrote
//   the same page numbers;
// - a restore image, a snapshot's change, and changes recorded before page
//   checksums (fileSha): the SHA-256 of the whole file.
// A write runs only on a file that passes its head's check, and a replay is
// checked against its target's, so a stale or damaged cache file is rebuilt
// instead of written on.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const CHUNK = 1024 * 1024;
/** Where SQLite's header keeps user_version: the seq of the change that last wrote the file. */
export const STAMP_OFFSET = 60;

/** What a change recorded of the file after it. */
export type ChangeCheck = { seq: number; pageSize: number; pageCount: number; pages: Uint8Array | null; pagesSha: string | null; fileSha: string | null };

/** The SHA-256 (hex) of a file's bytes; a missing file is an empty one. */
export function fileSha(file: string): string {
  const hash = createHash('sha256');
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return hash.digest('hex');
    throw error;
  }
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let read: number; (read = fs.readSync(fd, buffer, 0, CHUNK, null)) > 0; ) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

export function bytesSha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether the whole file has the SHA-256 `expected`; null (recorded before checksums) is taken as it is. */
export function wholeFileMatches(file: string, expected: string | null): boolean {
  return expected === null || fileSha(file) === expected;
}

/** Whether the file passes `change`'s check; no change (the empty database) is taken as it is. */
export function fileMatches(file: string, change: ChangeCheck | null): boolean {
  if (!change) return true;
  if (change.pagesSha === null) return wholeFileMatches(file, change.fileSha);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    if (fs.fstatSync(fd).size !== change.pageCount * change.pageSize) return false;
    // The change's pages as they are in the file now, in the recorded layout (page number, bytes).
    const recorded = change.pages ? inflateRawSync(change.pages) : Buffer.alloc(0);
    const step = 4 + change.pageSize;
    const now = Buffer.allocUnsafe(recorded.length);
    for (let at = 0; at + step <= recorded.length; at += step) {
      const pgno = recorded.readUInt32BE(at);
      now.writeUInt32BE(pgno, at);
      if (fs.readSync(fd, now, at + 4, change.pageSize, (pgno - 1) * change.pageSize) !== change.pageSize) return false;
    }
    const stamp = Buffer.alloc(4);
    fs.readSync(fd, stamp, 0, 4, STAMP_OFFSET);
    return stamp.readUInt32BE(0) === change.seq && bytesSha(now) === change.pagesSha;
  } finally {
    fs.closeSync(fd);
  }
}
