// Content-addressed blob storage behind one small interface: a blob is named
// by the SHA-256 of its bytes. The filesystem store under DATA_DIR is the
// default; an S3-compatible bucket is used when S3_BUCKET is set, a Vercel
// Blob store when BLOB_READ_WRITE_TOKEN is.
import path from 'node:path';
import { config } from '../config.ts';
import type { Coding } from '../core/files.ts';
import { ApiError } from '../core/errors.ts';
import { noteDependency } from '../core/dependencies.ts';
import { filesystemStore } from './filesystem.ts';
import { s3Store } from './s3.ts';
import { vercelBlobStore } from './vercel-blob.ts';

export type StoredBlob = { sha256: string; size: number };

/** Bytes start..end of a blob, both included (as HTTP's byte ranges count). */
export type ByteSpan = { start: number; end: number };

export interface BlobStore {
  /**
   * Streams `body` into the store while hashing it; never holds it whole in
   * memory. With `sha256`, bytes that hash to anything else are refused
   * (bad_request) and nothing of them is kept; past `maxBytes` the write stops
   * (too_large). A blob becomes visible only once it is complete.
   *
   * `admit` runs once the bytes are complete and match, before they become
   * visible under their name: it may refuse them by throwing (nothing is then
   * kept), and it is where the caller notes the blob's use, so that the
   * collector never deletes bytes that are about to be named.
   *
   * `record` runs instead once the bytes are visible under their name, while
   * the store still keeps them under a temporary name too: it is where the
   * caller notes the blob's use after the fact (one statement for a blob PUT).
   * When it returns true (the blob's row was new, so the collector may have
   * deleted an older row's bytes, these ones, meanwhile), the store makes sure
   * the bytes are still there and puts them back if not. If it throws, the
   * bytes stay under their name.
   */
  put(
    body: ReadableStream<Uint8Array>,
    options: { sha256?: string; maxBytes: number; admit?: (stored: StoredBlob) => Promise<void>; record?: (stored: StoredBlob) => Promise<boolean> },
  ): Promise<StoredBlob>;
  /**
   * The blob's bytes, or null when the store lacks it. `size`, when the
   * caller knows it, lets a store read a small blob in one go; `span` reads
   * only those bytes (within the blob), without reading the rest.
   */
  get(sha256: string, size?: number, span?: ByteSpan): Promise<ReadableStream<Uint8Array> | null>;
  /**
   * A blob's bytes compressed in `coding`, as putCopy stored them, or null
   * when there is no such copy (yet).
   */
  getCopy(sha256: string, coding: Coding): Promise<Uint8Array | null>;
  /**
   * Stores a blob's bytes compressed in `coding` beside it, whole and atomically
   * (a reader finds all of them or none), for every node to serve instead of
   * compressing again. Replacing a copy is harmless: it has the same bytes.
   * Once stored, it checks that the blob is still there, and deletes the copy
   * if not, so that a copy made while the collector deleted its blob does not
   * outlive it.
   */
  putCopy(sha256: string, coding: Coding, bytes: Uint8Array): Promise<void>;
  /**
   * Deletes these blobs' bytes, then their compressed copies; one already gone
   * is no error. Only the collector calls it.
   */
  delete(sha256s: string[]): Promise<void>;
  /** Removes temporary files (partial uploads) last written before `before`; returns how many. */
  sweepTemporary(before: Date): Promise<number>;
  /** Throws unless the store can be written now (readiness: GET /readyz). */
  check(): Promise<void>;
}

let store: BlobStore | undefined;

/** How long a client is told to wait after the store could not answer. */
const STORE_RETRY_AFTER_SECONDS = 5;
/** How long a failed write waits for the store's own check before blaming the caller instead. */
const STORE_CHECK_MS = 2000;

const storeUnavailable = () =>
  new ApiError('unavailable', 'The file store cannot be reached right now; try again in a few seconds.', { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });

/** Whether the store can be written now, within STORE_CHECK_MS. */
async function answersNow(inner: BlobStore): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STORE_CHECK_MS)));
  try {
    return await Promise.race([inner.check().then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads and writes that fail for the store's sake (unreachable, timing out,
 * failing) answer 503 with Retry-After, for the request that needed the store
 * only, and are reported (lib/core/dependencies.ts). A missing blob is still
 * null; a write refused for its bytes, or failing in the caller's `admit` or
 * body while the store answers, keeps its own error.
 */
function reporting(inner: BlobStore): BlobStore {
  async function read<T>(reading: Promise<T>): Promise<T> {
    try {
      const found = await reading;
      noteDependency('storage', true);
      return found;
    } catch {
      noteDependency('storage', false);
      throw storeUnavailable();
    }
  }
  return {
    ...inner,
    get: (sha256, size, span) => read(inner.get(sha256, size, span)),
    getCopy: (sha256, coding) => read(inner.getCopy(sha256, coding)),
    async put(body, options) {
      try {
        const stored = await inner.put(body, options);
        noteDependency('storage', true);
        return stored;
      } catch (error) {
        if (error instanceof ApiError || (await answersNow(inner))) throw error;
        noteDependency('storage', false);
        throw storeUnavailable();
      }
    },
  };
}

export function blobStore(): BlobStore {
  store ??= reporting(config.s3 ? s3Store(config.s3) : config.blobToken ? vercelBlobStore(config.blobToken) : filesystemStore(path.join(config.dataDir, 'blobs')));
  return store;
}
