// What a space database file must be after a change: the SHA-256 of its bytes,
// recorded with the change (SpaceDbChange.fileSha). A write checks its file
// against the head's before running, and a replay checks the file it built,
// so a stale or damaged cache file is rebuilt instead of written on. The whole
// file, not only the changed pages: a file one change behind has the right
// pages for the next change and the wrong ones elsewhere.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

const CHUNK = 1024 * 1024;

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

/** Whether the file is as recorded; a change recorded before checksums (null) is taken as it is. */
export function fileMatches(file: string, expected: string | null): boolean {
  return expected === null || fileSha(file) === expected;
}
