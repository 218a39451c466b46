// Blobs as files under a folder: <root>/ab/cd/<sha256>, their compressed
// copies beside them (<sha256>.br, <sha256>.gzip). A file is written to
// <root>/tmp first, flushed to disk and renamed into place, so a half-written
// blob or copy is never visible under its name, even after a crash.
import { randomUUID } from 'node:crypto';
import { access, constants, link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CODINGS, type Coding } from '../core/files.ts';
import type { BlobStore } from './index.ts';
import { hashMismatch, meter } from './meter.ts';

// Bytes gathered before a write: one write for most blobs, little memory per upload.
const WRITE_BATCH_BYTES = 256 * 1024;
/** Blobs up to this size whose size is known are read whole; larger ones are streamed in reads of this size. */
const WHOLE_READ_BYTES = 256 * 1024;

/** A blob under its name already has the same bytes (its name is their hash). */
function alreadyThere(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}

export function filesystemStore(root: string): BlobStore {
  const tmp = path.join(root, 'tmp');
  const blobPath = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  const copyPath = (sha256: string, coding: Coding) => `${blobPath(sha256)}.${coding}`;
  // Folders this process has made (at most 65,537), so that storing a blob
  // does not ask for its folder every time.
  const made = new Set<string>();
  /** Runs `action` in `dir`, made first if need be, and once more if the folder was removed meanwhile. */
  async function inFolder<T>(dir: string, action: () => Promise<T>): Promise<T> {
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    try {
      return await action();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
      return action();
    }
  }

  /** A new file in tmp/, written by `write` and flushed to disk; removed again if that fails. */
  async function writeTemporary(write: (file: FileHandle) => Promise<void>): Promise<string> {
    const temporary = path.join(tmp, randomUUID());
    const file = await inFolder(tmp, () => open(temporary, 'wx'));
    try {
      await write(file);
      await file.datasync();
    } catch (error) {
      await file.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await file.close();
    return temporary;
  }

  return {
    async put(body, { sha256, maxBytes, admit, record }) {
      const measured = meter(maxBytes);
      const temporary = await writeTemporary(async (file) => {
        // Chunks are written in batches: most blobs are small and take one write.
        let batch: Uint8Array[] = [];
        let batched = 0;
        for await (const chunk of body) {
          measured.add(chunk);
          batch.push(chunk);
          batched += chunk.byteLength;
          if (batched >= WRITE_BATCH_BYTES) {
            await file.writev(batch);
            batch = [];
            batched = 0;
          }
        }
        if (batch.length) await file.writev(batch);
      });
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
      if (!record) {
        await inFolder(path.dirname(final), () => rename(temporary, final));
        return stored;
      }
      // A second name for the same file, so that the temporary one keeps the
      // bytes until `record` has said whether they must be checked.
      const place = () => inFolder(path.dirname(final), () => link(temporary, final).catch(alreadyThere));
      try {
        await place();
        if ((await record(stored)) && !(await access(final).then(() => true, () => false))) await place();
      } finally {
        // One system call (rm would ask what the path is first): a hot path.
        await unlink(temporary);
      }
      return stored;
    },

    async get(sha256, size, span) {
      let file: FileHandle;
      try {
        file = await open(blobPath(sha256));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      if (span || size === undefined || size > WHOLE_READ_BYTES) {
        return Readable.toWeb(file.createReadStream({ ...span, highWaterMark: WHOLE_READ_BYTES })) as ReadableStream<Uint8Array>;
      }
      // Most files of a site: one read into a buffer of their size, not a
      // stream's buffer of 256 KiB and a second read to find the end.
      let bytes: Buffer;
      try {
        bytes = Buffer.allocUnsafe(size);
        const { bytesRead } = await file.read(bytes, 0, size, 0);
        bytes = bytes.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
      return new ReadableStream<Uint8Array>({
        start(controller) {
          if (bytes.byteLength) controller.enqueue(bytes);
          controller.close();
        },
      });
    },

    async getCopy(sha256, coding) {
      try {
        return await readFile(copyPath(sha256, coding));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async putCopy(sha256, coding, bytes) {
      const temporary = await writeTemporary((file) => file.writeFile(bytes));
      const final = copyPath(sha256, coding);
      await inFolder(path.dirname(final), () => rename(temporary, final));
      const blobThere = await access(blobPath(sha256)).then(() => true, () => false);
      if (!blobThere) await rm(final, { force: true });
    },

    async delete(sha256s) {
      await Promise.all(sha256s.map((sha256) => rm(blobPath(sha256), { force: true })));
      await Promise.all(sha256s.flatMap((sha256) => CODINGS.map((coding) => rm(copyPath(sha256, coding), { force: true }))));
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

    async check() {
      await mkdir(tmp, { recursive: true });
      await access(tmp, constants.W_OK);
    },
  };
}
