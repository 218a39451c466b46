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
// for the whole write, so there is one writer at a time across instances, and
// read the head in the lock's transaction. Each change records what the file
// must be after it, in proportion to the change (file-state.ts): a write runs
// only on a file that passes the head's check, and a replay is checked
// against its target's.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { config } from '../config.ts';
import pg from 'pg';
import { query, transaction, type Sql } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { blobStore } from '../storage/index.ts';
import { bytesSha, fileMatches, wholeFileMatches, type ChangeCheck } from './file-state.ts';
import { JobRefused } from './pool.ts';
import { KeyedRwLock } from './rw-lock.ts';
import type { Delta } from './worker.ts';

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

/**
 * Each space's cache file in this process, and the change it holds (null: not
 * known, so rebuilt). Query processes keep read connections open between jobs
 * (worker.ts), and SQLite may hold a file's -wal and -shm under their names
 * until then, so this process never rewrites a file bytewise where a
 * connection may see it: a catch-up, rebuild or restore writes a new
 * generation, a new name, and unlinks the old one, whose kept connections are
 * closed later by their process (it asks for this generation from then on).
 * Changes made through SQLite (writes) stay in the same file.
 */
const cached = new Map<string, { file: string; seq: number | null }>();
let generations = 0;

const newGeneration = (spaceId: string) => path.join(cacheRoot(), `${spaceId}.${++generations}.sqlite`);

/** The space's current cache file (it may not exist yet). */
export function cacheFile(spaceId: string): string {
  let entry = cached.get(spaceId);
  if (!entry) cached.set(spaceId, (entry = { file: newGeneration(spaceId), seq: null }));
  return entry.file;
}

function removeFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** Forgets the cached file (after a killed write, or a failed commit of history). */
export function dropCache(spaceId: string): void {
  const entry = cached.get(spaceId);
  cached.delete(spaceId);
  if (entry) removeFiles(entry.file);
}

/** A change's pages (page number, bytes; by page number), deflated, and the checksum of that layout (file-state.ts). */
export function encodePages(delta: Delta): { pages: Buffer; pagesSha: string } {
  const parts: Buffer[] = [];
  for (const { pgno, data } of delta.pages.toSorted((a, b) => a.pgno - b.pgno)) {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(pgno);
    parts.push(head, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  const raw = Buffer.concat(parts);
  return { pages: deflateRawSync(raw, { level: 1 }), pagesSha: bytesSha(raw) };
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

const CHECK = 'SELECT seq, "pageSize", "pageCount", pages, "pagesSha", "fileSha" FROM "SpaceDbChange" WHERE "spaceId" = $1 AND seq = $2';

/** What change `seq` recorded of the file after it (null: the empty database). */
async function recordedCheck(sql: Sql, spaceId: string, seq: number): Promise<ChangeCheck | null> {
  if (seq === 0) return null;
  return (await sql<ChangeCheck>(CHECK, [spaceId, seq]))[0] ?? null;
}

/** The newest snapshot or image below change `below`: its seq, its blob and the file's recorded SHA-256 after it. */
async function baseBelow(sql: Sql, spaceId: string, below: number): Promise<{ seq: number; blob: string; fileSha: string | null } | null> {
  const [base] = await sql<{ seq: number; blob: string; fileSha: string | null }>(BASE_BELOW, [spaceId, below]);
  return base ?? null;
}

// The newest of the snapshots and images below $2 (an image wins a tie: it is the change itself).
const BASE_BELOW = `
  SELECT * FROM (
    SELECT s.seq, s.sha256 AS blob, c."fileSha", 0 AS image FROM "SpaceDbSnapshot" s
    LEFT JOIN "SpaceDbChange" c ON c."spaceId" = s."spaceId" AND c.seq = s.seq
    WHERE s."spaceId" = $1 AND s.seq < $2
    UNION ALL
    SELECT seq, "imageSha", "fileSha", 1 FROM "SpaceDbChange" WHERE "spaceId" = $1 AND seq < $2 AND "imageSha" IS NOT NULL
  ) bases ORDER BY seq DESC, image DESC LIMIT 1`;

/** Writes the changes after `after` up to `target` over `file`. */
async function replay(sql: Sql, spaceId: string, after: number, target: number, file: string): Promise<void> {
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  // In batches, so that a long replay never holds every change in memory.
  while (after < target) {
    const changes = await sql<{ seq: number; pageSize: number; pageCount: number; pages: Uint8Array | null; imageSha: string | null }>(CHANGES, [spaceId, after, target]);
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

const CHANGES = 'SELECT seq, "pageSize", "pageCount", pages, "imageSha" FROM "SpaceDbChange" WHERE "spaceId" = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT 500';

/** How many damaged snapshots a rebuild passes over before it gives up. */
const MAX_BASES_TRIED = 4;

/**
 * Writes the state as of change `target` into `file`, and checks it against
 * the checksum recorded with the target. Starts from the file's own state
 * when it holds an earlier change (`from`) and no base (snapshot or image)
 * lies closer, else from the newest base whose bytes are what was recorded.
 * A file that fails the check is rebuilt from a base; when no base gives the
 * recorded state, the space answers 503 rather than run on a wrong file.
 */
export async function materialize(sql: Sql, spaceId: string, target: number, file: string, from: number | null): Promise<void> {
  const expected = await recordedCheck(sql, spaceId, target);
  let base = await baseBelow(sql, spaceId, target + 1);
  if (from !== null && from <= target && from >= (base?.seq ?? 0)) {
    await replay(sql, spaceId, from, target, file);
    if (fileMatches(file, expected)) return;
  }
  for (let tried = 0; tried < MAX_BASES_TRIED; tried++) {
    removeFiles(file);
    if (base) fs.writeFileSync(file, await readImage(base.blob));
    const good = !base || wholeFileMatches(file, base.fileSha);
    if (good) {
      await replay(sql, spaceId, base?.seq ?? 0, target, file);
      if (fileMatches(file, expected)) return;
    }
    // A damaged base is passed over; a good one that replays wrong means the history is wrong past it: stop.
    if (!base || good) break;
    base = await baseBelow(sql, spaceId, base.seq);
  }
  removeFiles(file);
  throw cacheUnavailable();
}

/** The answer when a space's file cannot be brought to a state its history vouches for. */
function cacheUnavailable(): ApiError {
  return new ApiError('unavailable', "This space's database could not be read back from its history; try again in a moment.", { 'retry-after': '5' });
}

export const isCacheFault = (error: unknown): boolean => error instanceof JobRefused && error.refusal.code === 'cache_fault';

/**
 * Brings this instance's cache file up to `head`; returns its path. What this
 * process remembers of the file is a hint: a write checks the file itself
 * (worker.ts), and a replay checks what it built.
 */
export async function syncCache(sql: Sql, spaceId: string, head: number): Promise<string> {
  const current = cacheFile(spaceId);
  const have = cached.get(spaceId)!.seq;
  if (have === head && fs.existsSync(current)) return current;
  // Caught up in a copy: the current file may be open in a query process.
  const next = newGeneration(spaceId);
  const from = have !== null && fs.existsSync(current) ? have : null;
  cached.set(spaceId, { file: next, seq: null });
  removeFiles(next);
  try {
    if (from !== null) fs.copyFileSync(current, next);
    await materialize(sql, spaceId, head, next, from);
  } finally {
    removeFiles(current);
  }
  cached.set(spaceId, { file: next, seq: head });
  return next;
}

/** The file holds change `seq`, written by SQLite in place (a write). */
export function noteCached(spaceId: string, seq: number): void {
  cached.set(spaceId, { file: cacheFile(spaceId), seq });
}

/** Makes `bytes` (change `seq`, a restore's image) the space's cache file, as a new generation. */
export function installCache(spaceId: string, seq: number, bytes: Buffer): void {
  const old = cacheFile(spaceId);
  const next = newGeneration(spaceId);
  fs.writeFileSync(next, bytes);
  cached.set(spaceId, { file: next, seq });
  removeFiles(old);
}

export type Head = { headSeq: number; headAt: Date; sinceSnapshotBytes: bigint };
/** The head read under the space's lock, with what its change recorded of the file, which a write must find. */
export type LockedHead = Head & { check: ChangeCheck | null };

/** The head of a space's history (a fresh, empty one when it has none yet). */
export async function headOf(sql: Sql, spaceId: string): Promise<Head> {
  const [row] = await sql<{ headSeq: number; headAt: Date; sinceSnapshotBytes: string }>(HEAD, [spaceId]);
  return row ? { ...row, sinceSnapshotBytes: BigInt(row.sinceSnapshotBytes) } : { headSeq: 0, headAt: new Date(0), sinceSnapshotBytes: 0n };
}

const HEAD = 'SELECT "headSeq", "headAt", "sinceSnapshotBytes"::text FROM "SpaceDatabase" WHERE "spaceId" = $1';

/**
 * The statements that open a write's transaction, as literal SQL sent with
 * BEGIN in one round trip: a bound on how long the transaction may sit idle
 * (a web process that stops answering must not hold the lock; a job runs for
 * `timeoutMs` at most), the space's lock, and the head with what its change
 * recorded of the file. The head is a statement after the lock's: each
 * statement of a simple query takes its own snapshot (read committed), so it
 * sees the last holder's commit.
 */
function lockAndHead(spaceId: string, timeoutMs: number): string {
  return `SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(timeoutMs)};
    SELECT pg_advisory_xact_lock(hashtextextended(${pg.escapeLiteral(`spacedb:${spaceId}`)}, 0));
    SELECT d."headSeq", d."headAt", d."sinceSnapshotBytes"::text, c.seq, c."pageSize", c."pageCount", c.pages, c."pagesSha", c."fileSha"
    FROM "SpaceDatabase" d LEFT JOIN "SpaceDbChange" c ON c."spaceId" = d."spaceId" AND c.seq = d."headSeq"
    WHERE d."spaceId" = ${pg.escapeLiteral(spaceId)}`;
}

/** The head and its change's check from lockAndHead's last statement. */
function lockedHead(result: pg.QueryResult): LockedHead {
  const row = result.rows[0] as (Omit<Head, 'sinceSnapshotBytes'> & { sinceSnapshotBytes: string } & Partial<ChangeCheck>) | undefined;
  if (!row) return { headSeq: 0, headAt: new Date(0), sinceSnapshotBytes: 0n, check: null };
  const { headSeq, headAt, sinceSnapshotBytes, seq, pageSize, pageCount, pages, pagesSha, fileSha } = row;
  const check = seq == null ? null : { seq, pageSize: pageSize!, pageCount: pageCount!, pages: pages ?? null, pagesSha: pagesSha ?? null, fileSha: fileSha ?? null };
  return { headSeq, headAt, sinceSnapshotBytes: BigInt(sinceSnapshotBytes), check };
}

/** The time of the next change: now, but always after the head's, so history times strictly increase. */
export function nextAt(head: Head): Date {
  return new Date(Math.max(Date.now(), head.headAt.getTime() + 1));
}

/** A write's entry in the space's write log (SpaceDbWrite). */
export type WriteLogEntry = { userId: string | null; guestName: string | null; origin: { [key: string]: string | null }; statement: string; name: string | null; rowsWritten: number };

const LOG_WRITE = `INSERT INTO "SpaceDbWrite" (id, "spaceId", at, "userId", "guestName", origin, statement, name, "rowsWritten")
  VALUES ($1, $2, now(), $3, $4, $5::jsonb, $6, $7, $8)`;
const logValues = (spaceId: string, log: WriteLogEntry) => [newId('spaceDbWrite'), spaceId, log.userId, log.guestName, JSON.stringify(log.origin), log.statement, log.name, log.rowsWritten];

/** Logs a write that recorded no change (it changed nothing, or a restore recorded its image). */
export async function logWrite(sql: Sql, spaceId: string, log: WriteLogEntry): Promise<void> {
  await sql(LOG_WRITE, logValues(spaceId, log));
}

// The change, the log entry and the new head in one statement: $1-$8 as LOG_WRITE's.
const RECORD = `
  WITH change AS (
    INSERT INTO "SpaceDbChange" ("spaceId", seq, at, "pageSize", "pageCount", pages, "pagesSha", "fileSha")
    VALUES ($2, $9, $10, $11, $12, $13, $14, $15)
  ), entry AS (${LOG_WRITE})
  INSERT INTO "SpaceDatabase" ("spaceId", "headSeq", "headAt", "sinceSnapshotBytes") VALUES ($2, $9, $10, $16)
  ON CONFLICT ("spaceId") DO UPDATE SET "headSeq" = EXCLUDED."headSeq", "headAt" = EXCLUDED."headAt", "sinceSnapshotBytes" = EXCLUDED."sinceSnapshotBytes"`;

/**
 * Records a committed write's pages as the next change, and its `log` entry; takes a snapshot when
 * due. With the blob store unreachable the snapshot waits for a later write:
 * the change alone keeps the history whole, only a rebuild replays more.
 */
export async function recordDelta(sql: Sql, spaceId: string, head: Head, delta: Delta, file: string, log: WriteLogEntry): Promise<{ seq: number; at: Date }> {
  const seq = head.headSeq + 1;
  const at = nextAt(head);
  const { pages, pagesSha } = encodePages(delta);
  let since = head.sinceSnapshotBytes + BigInt(pages.length);
  const size = delta.pageCount * delta.pageSize;
  // The whole file's checksum only with a snapshot, which reads the whole file anyway.
  let fileSha: string | null = null;
  if (since > BigInt(Math.max(SNAPSHOT_MIN_BYTES, size))) {
    const bytes = fs.readFileSync(file);
    const image = await storeImage(bytes).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'unavailable') return null;
      throw error;
    });
    if (image) {
      await sql('INSERT INTO "SpaceDbSnapshot" ("spaceId", seq, sha256, size) VALUES ($1, $2, $3, $4)', [spaceId, seq, image.sha256, image.size]);
      fileSha = bytesSha(bytes);
      since = 0n;
      await pruneHistory(sql, spaceId, at.getTime());
    }
  }
  await sql(RECORD, [...logValues(spaceId, log), seq, at, delta.pageSize, delta.pageCount, pages, pagesSha, fileSha, since.toString()]);
  return { seq, at };
}

/**
 * Drops what no restore within the window can need: everything before the
 * newest base (snapshot or image) made before the window began. That base's
 * own change row stays, so a moment at the window's start still resolves to
 * it. Runs when a snapshot or image is recorded, so its cost is amortised.
 */
export async function pruneHistory(sql: Sql, spaceId: string, now: number): Promise<number> {
  const [{ dropped }] = await sql<{ dropped: number }>(PRUNE, [spaceId, new Date(now - HISTORY_MS)]);
  return dropped;
}

// Data-modifying WITH parts run to completion whether or not the query reads them.
const PRUNE = `
  WITH base AS (
    SELECT coalesce(max(c.seq), 0) AS seq FROM "SpaceDbChange" c
    WHERE c."spaceId" = $1 AND c.at < $2
      AND (c."imageSha" IS NOT NULL OR EXISTS (SELECT 1 FROM "SpaceDbSnapshot" s WHERE s."spaceId" = c."spaceId" AND s.seq = c.seq))
  ), changes AS (
    DELETE FROM "SpaceDbChange" c USING base WHERE c."spaceId" = $1 AND c.seq < base.seq RETURNING 1
  ), snapshots AS (
    DELETE FROM "SpaceDbSnapshot" s USING base WHERE s."spaceId" = $1 AND s.seq < base.seq
  )
  SELECT count(*)::int AS dropped FROM changes`;

// The image's change and the new head in one statement.
const RECORD_IMAGE = `
  WITH change AS (
    INSERT INTO "SpaceDbChange" ("spaceId", seq, at, "pageSize", "pageCount", "imageSha", "imageSize", "fileSha")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  )
  INSERT INTO "SpaceDatabase" ("spaceId", "headSeq", "headAt", "sinceSnapshotBytes") VALUES ($1, $2, $3, 0)
  ON CONFLICT ("spaceId") DO UPDATE SET "headSeq" = EXCLUDED."headSeq", "headAt" = EXCLUDED."headAt", "sinceSnapshotBytes" = 0`;

/** Records a whole image (a restore), already in the blob store as `image`, as the next change. */
export async function recordImage(sql: Sql, spaceId: string, head: Head, bytes: Buffer, image: { sha256: string; size: number }): Promise<{ seq: number; at: Date }> {
  const seq = head.headSeq + 1;
  const at = nextAt(head);
  const pageSize = bytes.length >= 100 ? bytes.readUInt16BE(16) || 65536 : 4096;
  await sql(RECORD_IMAGE, [spaceId, seq, at, pageSize, Math.ceil(bytes.length / pageSize), image.sha256, image.size, bytesSha(bytes)]);
  await pruneHistory(sql, spaceId, at.getTime());
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
 * Runs a write `job` holding the space's lock (a transaction-scoped advisory
 * lock, so it ends with the transaction even if this process dies), on the
 * cache file at the head read in that same transaction. `reserve` (a query
 * process) is taken first, after this node's earlier writes to the space: a
 * write waiting for a process holds no database connection. A job that finds
 * the file damaged or behind (a cache fault) is run once more on a file
 * rebuilt from the history, else answered 503.
 */
export async function withWriteLock<T, R extends { release(): void }>(
  spaceId: string,
  timeoutMs: number,
  reserve: () => Promise<R>,
  job: (sql: Sql, head: LockedHead, file: string, reserved: R) => Promise<T>,
): Promise<T> {
  return fileLock.write(spaceId, async () => {
    const reserved = await reserve();
    try {
      return await transaction(lockAndHead(spaceId, timeoutMs + 60_000), async (sql, opened) => {
        const head = lockedHead(opened.at(-1)!);
        // What this node remembers of its file only picks where catching up starts:
        // the file itself must pass the check the head's change recorded.
        const atHead = async () => {
          const file = await syncCache(sql, spaceId, head.headSeq);
          if (!fileMatches(file, head.check)) throw new JobRefused({ refused: true, code: 'cache_fault', message: 'The cache file is not at the head of its history.' });
          return file;
        };
        try {
          return await job(sql, head, await atHead(), reserved);
        } catch (error) {
          if (!isCacheFault(error)) throw error;
          dropCache(spaceId);
        }
        try {
          return await job(sql, head, await atHead(), reserved);
        } catch (error) {
          throw isCacheFault(error) ? cacheUnavailable() : error;
        }
      });
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
 * (this node's own writes since), beside the space's other reads. `known` is
 * the head as a statement of this request read it (loadSpace), else it is
 * read here: either way after the request arrived, so a write acknowledged on
 * any node before it is seen. A read that finds the file damaged runs once
 * more on a file rebuilt from the history, else is answered 503.
 */
export async function withReadCache<T>(spaceId: string, known: number | null, job: (file: string) => Promise<T>): Promise<T> {
  const head = known ?? (await query<{ headSeq: number }>(HEAD_SEQ, [spaceId]))[0]?.headSeq ?? 0;
  const current = () => (cached.get(spaceId)?.seq ?? -1) >= head;
  for (let faults = 0; ; ) {
    const answer = await fileLock.read<{ value: T } | 'behind' | 'damaged'>(spaceId, async () => {
      if (!current()) return 'behind';
      try {
        return { value: await job(cacheFile(spaceId)) };
      } catch (error) {
        if (!isCacheFault(error)) throw error;
        return 'damaged';
      }
    });
    if (typeof answer === 'object') return answer.value;
    if (answer === 'damaged' && ++faults > 1) throw cacheUnavailable();
    await fileLock.write(spaceId, async () => {
      if (answer === 'damaged') dropCache(spaceId);
      if (!current()) await syncCache(query, spaceId, head);
    });
  }
}

// Every read asks it: plain SQL, prepared once per connection.
const HEAD_SEQ = 'SELECT "headSeq" FROM "SpaceDatabase" WHERE "spaceId" = $1';
