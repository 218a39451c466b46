// Blobs as files under a folder: <root>/ab/cd/<sha256>. A blob is written to
// <root>/tmp first, flushed to disk and renamed into place, so a half-written
// blob is never visible under its name, even after a crash.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from './index.ts';
import { hashMismatch, meter } from './meter.ts';

export function filesystemStore(root: string): BlobStore {
  const tmp = path.join(root, 'tmp');
  const blobPath = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);

  return {
    async put(body, { sha256, maxBytes, admit }) {
      await mkdir(tmp, { recursive: true });
      const temporary = path.join(tmp, randomUUID());
      const measured = meter(maxBytes);
      const file = await open(temporary, 'wx');
      try {
        for await (const chunk of body.pipeThrough(measured.transform)) await file.write(chunk);
        await file.datasync();
      } catch (error) {
        await file.close();
        await rm(temporary, { force: true });
        throw error;
      }
      await file.close();
      const stored = measured.result();
      if (sha256 && stored.sha256 !== sha256) {
        await rm(temporary, { force: true });
        throw hashMismatch(sha256, stored.sha256);
      }
      if (admit) {
        try {
          await admit(stored);
        } catch (error) {
          await rm(temporary, { force: true });
          throw error;
        }
      }
      const final = blobPath(stored.sha256);
      await mkdir(path.dirname(final), { recursive: true });
      await rename(temporary, final);
      return stored;
    },

    async get(sha256) {
      try {
        const file = await open(blobPath(sha256));
        return Readable.toWeb(file.createReadStream({ highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async delete(sha256s) {
      await Promise.all(sha256s.map((sha256) => rm(blobPath(sha256), { force: true })));
    },

    // A temporary file is written to as its body arrives, so one untouched
    // since `before` belongs to an upload that was cut off or crashed.
    async sweepTemporary(before) {
      let names: string[];
      try {
        names = await readdir(tmp);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      let removed = 0;
      for (const name of names) {
        const file = path.join(tmp, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs < before.getTime()) {
          await rm(file, { force: true, recursive: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
