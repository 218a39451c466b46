// A space database's physical history, kept where every instance reaches it:
// each committed write transaction is one SpaceDbChange row holding the pages
// it wrote (read from SQLite's write-ahead log, worker.ts), and from time to
// time the whole file is a snapshot in the blob store. The state at change N is
// the newest snapshot (or restore image) at or before N with the later
// changes' pages written over it. Because pages are what SQLite stored, what a
// restore gives never depends on re-running SQL (random(), datetime('now')),
// on primary keys, or on the kind of statement (DDL included), and a write
// costs what it changed: its pages, plus a snapshot once the changes since the
// last one outweigh the database.
//
// Each instance keeps a cache file per space under DATA_DIR and brings it up to
// the head before every job. Writers hold a Postgres advisory lock on the space
// for the whole write, so there is one writer at a time across instances.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { config } from '../config.ts';
import { db, Prisma, query } from '../db/client.ts';
import { blobStore } from '../storage/index.ts';
import { JobRefused } from './pool.ts';
import { KeyedRwLock } from './rw-lock.ts';
import type { Delta } from './worker.ts';

type Tx = Prisma.TransactionClient;

/** History is kept (and restores allowed) this far back. */
export const HISTORY_MS = 30 * 24 * 3600 * 1000;
/** A snapshot is taken once the changes since the last one pass max(this, the database's size). */
const SNAPSHOT_MIN_BYTES = 1024 * 1024;
/** Marks snapshot blobs, so that their bytes never equal a user's upload. */
const SNAPSHOT_MAGIC = Buffer.from('atrium-spacedb-image\n');

// The cache of this process: one folder per process id, so that instances
// sharing DATA_DIR never share files; folders of processes gone are removed.
let cacheDir: string | null = null;
function cacheRoot(): string {
  if (cacheDir) return cacheDir;
  const root = path.join(config.dataDir, 'spacedb');
  fs.mkdirSync(root, { recursive: true });
  for (const entry of fs.readdirSync(root)) {
    const pid = Number(/^cache-(\d+)$/.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    }
  }
  cacheDir = path.join(root, `cache-${process.pid}`);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  return cacheDir;
}

/** The change each cached file holds; a file not listed is rebuilt. */
const cachedSeq = new Map<string, number>();

export function cacheFile(spaceId: string): string {
  return path.join(cacheRoot(), `${spaceId}.sqlite`);
}

function removeFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** Forgets the cached file (after a killed write, or a failed commit of history). */
export function dropCache(spaceId: string): void {
  cachedSeq.delete(spaceId);
  removeFiles(cacheFile(spaceId));
}

export function encodePages(delta: Delta): Buffer {
  const parts: Buffer[] = [];
  for (const { pgno, data } of delta.pages) {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(pgno);
    parts.push(head, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  return deflateRawSync(Buffer.concat(parts), { level: 1 });
}

function applyPages(file: string, change: { pageSize: number; pageCount: number; pages: Uint8Array | null }): void {
  const raw = change.pages ? inflateRawSync(change.pages) : Buffer.alloc(0);
  const fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+');
  try {
    const step = 4 + change.pageSize;
    for (let at = 0; at + step <= raw.length; at += step) {
      const pgno = raw.readUInt32BE(at);
      fs.writeSync(fd, raw, at + 4, change.pageSize, (pgno - 1) * change.pageSize);
    }
    fs.ftruncateSync(fd, change.pageCount * change.pageSize);
  } finally {
    fs.closeSync(fd);
  }
}

async function readImage(sha256: string): Promise<Buffer> {
  const stream = await blobStore().get(sha256);
  if (!stream) throw new Error(`The space database image ${sha256} is missing from the blob store.`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).subarray(SNAPSHOT_MAGIC.length);
}

export async function storeImage(bytes: Buffer): Promise<{ sha256: string; size: number }> {
  const body = Buffer.concat([SNAPSHOT_MAGIC, bytes]);
  const stored = await blobStore().put(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(body));
        controller.close();
      },
    }),
    { maxBytes: body.length },
  );
  return { sha256: stored.sha256, size: bytes.length };
}

/**
 * Writes the state as of change `target` into `file`. Starts from the file's
 * own state when it holds an earlier change (`from`) and no image lies between,
 * else from the newest snapshot or image at or before the target.
 */
export async function materialize(client: Tx | typeof db, spaceId: string, target: number, file: string, from: number | null): Promise<void> {
  // One after the other: inside a transaction there is one connection.
  const snapshot = await client.spaceDbSnapshot.findFirst({ where: { spaceId, seq: { lte: target } }, orderBy: { seq: 'desc' } });
  const image = await client.spaceDbChange.findFirst({ where: { spaceId, seq: { lte: target }, imageSha: { not: null } }, orderBy: { seq: 'desc' }, select: { seq: true, imageSha: true } });
  const base = Math.max(snapshot?.seq ?? 0, image?.seq ?? 0);
  let start: number;
  if (from !== null && from <= target && from >= (image?.seq ?? 0) && (from >= base || target - from < target - base)) {
    start = from;
  } else {
    removeFiles(file);
    if (base > 0) {
      const sha = image && image.seq === base ? image.imageSha! : snapshot!.sha256;
      fs.writeFileSync(file, await readImage(sha));
    }
    start = base;
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  // In batches, so that a long replay never holds every change in memory.
  for (let after = start; after < target; ) {
    const changes = await client.spaceDbChange.findMany({
      where: { spaceId, seq: { gt: after, lte: target } },
      orderBy: { seq: 'asc' },
      take: 500,
      select: { seq: true, pageSize: true, pageCount: true, pages: true, imageSha: true },
    });
    if (changes.length === 0) break;
    for (const change of changes) {
      if (change.imageSha) {
        removeFiles(file);
        fs.writeFileSync(file, await readImage(change.imageSha));
      } else applyPages(file, change);
      after = change.seq;
    }
  }
}

/** Brings this instance's cache file up to `head`; returns its path. */
export async function syncCache(client: Tx | typeof db, spaceId: string, head: number): Promise<string> {
  const file = cacheFile(spaceId);
  const have = cachedSeq.get(spaceId);
  if (have === head && fs.existsSync(file)) return file;
  cachedSeq.delete(spaceId);
  await materialize(client, spaceId, head, file, have !== undefined && fs.existsSync(file) ? have : null);
  cachedSeq.set(spaceId, head);
  return file;
}

export function noteCached(spaceId: string, seq: number): void {
  cachedSeq.set(spaceId, seq);
}

export type Head = { headSeq: number; headAt: Date; sinceSnapshotBytes: bigint };

/** The head of a space's history (a fresh, empty one when it has none yet). */
export async function headOf(client: Tx | typeof db, spaceId: string): Promise<Head> {
  const row = await client.spaceDatabase.findUnique({ where: { spaceId }, select: { headSeq: true, headAt: true, sinceSnapshotBytes: true } });
  return row ?? { headSeq: 0, headAt: new Date(0), sinceSnapshotBytes: 0n };
}

/** The time of the next change: now, but always after the head's, so history times strictly increase. */
export function nextAt(head: Head): Date {
  return new Date(Math.max(Date.now(), head.headAt.getTime() + 1));
}

/** Records a committed write's pages as the next change; takes a snapshot when due. */
export async function recordDelta(tx: Tx, spaceId: string, head: Head, delta: Delta, file: string): Promise<{ seq: number; at: Date }> {
  const seq = head.headSeq + 1;
  const at = nextAt(head);
  const pages = encodePages(delta);
  await tx.spaceDbChange.create({ data: { spaceId, seq, at, pageSize: delta.pageSize, pageCount: delta.pageCount, pages: new Uint8Array(pages) } });
  let since = head.sinceSnapshotBytes + BigInt(pages.length);
  const size = delta.pageCount * delta.pageSize;
  if (since > BigInt(Math.max(SNAPSHOT_MIN_BYTES, size))) {
    const image = await storeImage(fs.readFileSync(file));
    await tx.spaceDbSnapshot.create({ data: { spaceId, seq, sha256: image.sha256, size: image.size } });
    since = 0n;
    await pruneHistory(tx, spaceId, at.getTime());
  }
  await tx.spaceDatabase.upsert({
    where: { spaceId },
    create: { spaceId, headSeq: seq, headAt: at, sinceSnapshotBytes: since },
    update: { headSeq: seq, headAt: at, sinceSnapshotBytes: since },
  });
  return { seq, at };
}

/**
 * Drops what no restore within the window can need: everything before the
 * newest base (snapshot or image) made before the window began. That base's
 * own change row stays, so a moment at the window's start still resolves to
 * it. Runs when a snapshot or image is recorded, so its cost is amortised.
 */
export async function pruneHistory(client: Tx | typeof db, spaceId: string, now: number): Promise<number> {
  const cutoff = new Date(now - HISTORY_MS);
  const snapshots = await client.spaceDbSnapshot.findMany({ where: { spaceId }, select: { seq: true } });
  const images = await client.spaceDbChange.findMany({ where: { spaceId, imageSha: { not: null }, at: { lt: cutoff } }, select: { seq: true } });
  const old = await client.spaceDbChange.findMany({
    where: { spaceId, seq: { in: snapshots.map((s) => s.seq) }, at: { lt: cutoff } },
    select: { seq: true },
  });
  const base = Math.max(0, ...old.map((c) => c.seq), ...images.map((c) => c.seq));
  if (base === 0) return 0;
  const changes = await client.spaceDbChange.deleteMany({ where: { spaceId, seq: { lt: base } } });
  await client.spaceDbSnapshot.deleteMany({ where: { spaceId, seq: { lt: base } } });
  return changes.count;
}

/** Records a whole image (a restore), already in the blob store as `image`, as the next change. */
export async function recordImage(tx: Tx, spaceId: string, head: Head, bytes: Buffer, image: { sha256: string; size: number }): Promise<{ seq: number; at: Date }> {
  const seq = head.headSeq + 1;
  const at = nextAt(head);
  const pageSize = bytes.length >= 100 ? bytes.readUInt16BE(16) || 65536 : 4096;
  await tx.spaceDbChange.create({ data: { spaceId, seq, at, pageSize, pageCount: Math.ceil(bytes.length / pageSize), imageSha: image.sha256, imageSize: image.size } });
  await tx.spaceDatabase.upsert({
    where: { spaceId },
    create: { spaceId, headSeq: seq, headAt: at, sinceSnapshotBytes: 0n },
    update: { headSeq: seq, headAt: at, sinceSnapshotBytes: 0n },
  });
  await pruneHistory(tx, spaceId, at.getTime());
  return { seq, at };
}

/** A scratch file for building a past state. */
export function scratchFile(): string {
  return path.join(cacheRoot(), `scratch-${randomUUID()}.sqlite`);
}

export function removeScratch(file: string): void {
  removeFiles(file);
}

// Per space in this process, the cache file is shared by reads and had alone
// by a write or by bringing the file up to the head: it is rewritten only
// then, never under an open connection.
const fileLock = new KeyedRwLock();

/**
 * Runs `job` holding the space's write lock (a transaction-scoped advisory
 * lock, so it ends with the transaction even if this process dies), with the
 * cache file at the head.
 */
/**
 * Runs a write `job` holding the space's lock, in a transaction. `reserve`
 * (a query process) is taken first, after this node's earlier writes to the
 * space: a write waiting for a process holds no database connection.
 */
export async function withWriteLock<T, R extends { release(): void }>(
  spaceId: string,
  timeoutMs: number,
  reserve: () => Promise<R>,
  job: (tx: Tx, head: Head, file: string, reserved: R) => Promise<T>,
): Promise<T> {
  return fileLock.write(spaceId, async () => {
    const reserved = await reserve();
    try {
      return await db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`spacedb:${spaceId}`}, 0))`;
          const head = await headOf(tx, spaceId);
          const file = await syncCache(tx, spaceId, head.headSeq);
          return job(tx, head, file, reserved);
        },
        { timeout: timeoutMs + 60_000, maxWait: 30_000 },
      );
    } catch (error) {
      // A refused statement was rolled back and left the file as it was; after
      // anything else the file may hold a write the history lacks: rebuild it.
      if (!(error instanceof JobRefused)) dropCache(spaceId);
      throw error;
    } finally {
      reserved.release();
    }
  });
}

/**
 * Runs a read `job` on the cache file at the current head or a later one
 * (this node's own writes since), beside the space's other reads.
 */
export async function withReadCache<T>(spaceId: string, job: (file: string) => Promise<T>): Promise<T> {
  const [row] = await query<{ headSeq: number }>(HEAD_SEQ, [spaceId]);
  const head = row?.headSeq ?? 0;
  const current = () => (cachedSeq.get(spaceId) ?? -1) >= head;
  for (;;) {
    const answer = await fileLock.read(spaceId, async () => (current() ? { value: await job(cacheFile(spaceId)) } : null));
    if (answer) return answer.value;
    await fileLock.write(spaceId, async () => {
      if (!current()) await syncCache(db, spaceId, head);
    });
  }
}

// Every read asks it: plain SQL, prepared once per connection.
const HEAD_SEQ = 'SELECT "headSeq" FROM "SpaceDatabase" WHERE "spaceId" = $1';
