// A space's SQL database, as the API offers it: queries (read-only, member
// writes, guest writes by name), the overview, guest writes, the write log,
// export, reset and point-in-time restore. The SQL runs in the child-process
// pool (pool.ts, worker.ts); the history lives in Postgres and the blob store
// (history.ts), so any instance can serve any space.
import fs from 'node:fs';
import { UNKNOWN_CLIENT, type Caller } from '../core/caller.ts';
import { checkGuestName, cleanGuestName } from '../accounts/guest-names.ts';
import { limitsOf } from '../billing/plans.ts';
import { config } from '../config.ts';
import { db, query } from '../db/client.ts';
import type { Plan } from '../db/generated/client.ts';
import { addressKey } from '../core/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import type { z } from 'zod';
import type { guestWrite as guestWriteSchema, writeRecord } from '../schemas/spacedb.ts';
import { spaceWith, type LoadedSpace } from '../spaces/spaces.ts';
import {
  HISTORY_MS,
  headOf,
  installCache,
  logWrite,
  materialize,
  nextAt,
  noteCached,
  recordDelta,
  recordImage,
  removeScratch,
  scratchFile,
  storeImage,
  withReadCache,
  withWriteLock,
  type WriteLogEntry,
} from './history.ts';
import { Semaphore } from '../pool.ts';
import { runBounded } from './bounded.ts';
import { JobKilled, JobRefused, Pool, PoolClosed, type Owner } from './pool.ts';
import { splitStatements } from './sql.ts';
import type { Job, RunJob, RunResult, TablesResult } from './worker.ts';

type GuestWrite = z.infer<typeof guestWriteSchema>;
type WriteRecord = z.input<typeof writeRecord>;

/** Rows and bytes of one answer; past them `truncated` is true. */
export const MAX_RESULT_ROWS = 10_000;
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** Guest writes per client address (every instance counts in the same store). */
export const guestWriteLimit = rateLimit({
  name: 'spacedb-guest-write',
  points: 60,
  duration: 600,
  message: 'Too many database writes from your address; wait a few minutes.',
});

let pool: Pool | null = null;
function thePool(): Pool {
  pool ??= new Pool(config.spacedbWorkers);
  return pool;
}

/** For tests: stop the children. */
export async function closePool(): Promise<void> {
  await pool?.close();
  pool = null;
}

/** Anonymous callers' queries stop sooner: they share at most half the processes. */
export const ANONYMOUS_TIMEOUT_MS = 5000;
/**
 * Jobs running or waiting at once on this node, past which a query is refused
 * with 429: per person (or app), per anonymous address, per space, and for
 * anonymous callers together (per query process). Waiting jobs hold no database
 * connection, so these bound memory and waiting time, not the pool.
 */
export const MAX_JOBS = { person: 64, anonymousAddress: 2, space: 64, anonymousPerProcess: 4 } as const;
/**
 * Restores in flight at once on this node: per person (past it 429), and
 * rebuilding at once per query process (the rest wait their turn). Each
 * rebuilding holds a whole image in memory.
 */
export const MAX_RESTORES = { person: 4, perProcess: 1 } as const;
/** Restores rebuilding at once on this node; the others wait their turn (holding no connection). */
let restoreTurns: Semaphore | null = null;
const restoreTurn = () => (restoreTurns ??= new Semaphore(MAX_RESTORES.perProcess * config.spacedbWorkers)).acquire();

/** Who a job is for (pool.ts's fairness), and what admission tells them when they have too many in flight. */
type Asker = Owner & { tooMany: string };

function personOwner(userId: string): Asker {
  return { key: `user:${userId}`, anonymous: false, tooMany: 'You have too many database queries running at once; wait for them to finish.' };
}

function ownerOf(caller: Caller): Asker {
  if (caller.actor) return personOwner(caller.actor.user.id);
  return { key: `address:${addressKey(caller.client.address)}`, anonymous: true, tooMany: 'Too many database queries from your address at once; wait for them to finish.' };
}

/** An app's reads of its data are its own, so that one app's visitors never queue behind another's or behind exports. */
function appOwner(appId: string): Asker {
  return { key: `app:${appId}`, anonymous: false, tooMany: 'This app has too many database reads under way; try again in a moment.' };
}

const deadlineOf = (owner: Owner) => (owner.anonymous ? Math.min(ANONYMOUS_TIMEOUT_MS, config.spacedbTimeoutMs) : config.spacedbTimeoutMs);

type Limit = { key: string; cap: number; code: 'rate_limited' | 'unavailable'; message: string };

const inFlight = new Map<string, number>();
/**
 * Admits one piece of work under every limit or refuses it (429 or 503, with
 * Retry-After), so that no one's runaways or restores queue up without end.
 * Returns the release.
 */
function admit(limits: Limit[], retryAfterMs: number): () => void {
  for (const { key, cap, code, message } of limits) {
    if ((inFlight.get(key) ?? 0) >= cap) throw new ApiError(code, message, { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) });
  }
  for (const { key } of limits) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const { key } of limits) {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
    }
  };
}

/** A job for `owner` on `spaceId`: each owner, space and anonymous address has a bounded number in flight. */
function admitJob(owner: Asker, spaceId: string): () => void {
  return admit(
    [
      { key: owner.key, cap: owner.anonymous ? MAX_JOBS.anonymousAddress : MAX_JOBS.person, code: 'rate_limited', message: owner.tooMany },
      { key: `space:${spaceId}`, cap: MAX_JOBS.space, code: 'rate_limited', message: 'This space has too many database queries running at once; try again in a moment.' },
      ...(owner.anonymous
        ? [{ key: 'anonymous', cap: MAX_JOBS.anonymousPerProcess * config.spacedbWorkers, code: 'rate_limited' as const, message: 'Too many database queries from visitors at the moment; try again shortly.' }]
        : []),
    ],
    deadlineOf(owner),
  );
}

/**
 * A write for `owner`: guests' writes are counted by their own row limits
 * before they get here, and a waiting write holds neither a process nor a
 * connection, so a visitor's burst queues (up to the person's bound) instead of
 * being refused two at a time as their reads are.
 */
function admitWrite(owner: Asker, spaceId: string): () => void {
  return admit(
    [
      { key: `write:${owner.key}`, cap: MAX_JOBS.person, code: 'rate_limited', message: owner.tooMany },
      { key: `space:${spaceId}`, cap: MAX_JOBS.space, code: 'rate_limited', message: 'This space has too many database queries running at once; try again in a moment.' },
    ],
    deadlineOf(owner),
  );
}

function asApiError(error: unknown, deadlineMs: number): unknown {
  // A cache fault is the server's: history.ts rebuilds the file and runs the job again.
  if (error instanceof JobRefused) return error.refusal.code === 'cache_fault' ? error : new ApiError(error.refusal.code, error.refusal.message);
  if (error instanceof PoolClosed) return new ApiError('unavailable', 'This server is stopping; try again in a moment.');
  if (error instanceof JobKilled) return new ApiError('bad_request', `${error.message} Queries may run for at most ${deadlineMs / 1000} s${deadlineMs < config.spacedbTimeoutMs ? ' when not signed in' : ''}.`);
  return error;
}

/**
 * A read for `owner`: admitted, run on the space's cache file at the head
 * (`head` when this request has read it already): here when its statement
 * cannot run away (bounded.ts), else on a query process of its own.
 */
async function readAs<T>(owner: Asker, spaceId: string, job: (file: string) => Job, head: number | null = null): Promise<T> {
  const release = admitJob(owner, spaceId);
  const deadlineMs = deadlineOf(owner);
  try {
    return await withReadCache(spaceId, head, async (file) => {
      const task = job(file);
      // A run job's answer is a RunResult, as the query process's would be.
      const here = task.op === 'run' ? runBounded(task) : null;
      return here ? ({ ...here, delta: null } as T) : thePool().run<T>(task, deadlineMs, owner, spaceId);
    });
  } catch (error) {
    throw asApiError(error, deadlineMs);
  } finally {
    release();
  }
}

/** The owner's turn on a space for a write, taken before its transaction opens (withWriteLock); its jobs take a process only while they run. */
async function writeLease(owner: Owner, spaceId: string): Promise<{ run<T>(job: Job): Promise<T>; release(): void }> {
  const deadlineMs = deadlineOf(owner);
  const lease = await thePool()
    .lease(owner, spaceId)
    .catch((error: unknown) => Promise.reject(asApiError(error, deadlineMs)));
  return {
    run: async <T>(job: Job) => {
      try {
        return await lease.run<T>(job, deadlineMs);
      } catch (error) {
        throw asApiError(error, deadlineMs);
      }
    },
    release: () => lease.release(),
  };
}

// Asked by writes whose request did not read the plan with the space: plain SQL, prepared once per connection.
const PLAN = 'SELECT "plan" FROM "Workspace" WHERE "id" = $1';

/** The plan's database size cap, as SQLite pages (4096 bytes). */
async function maxPageCount(space: SpaceRef): Promise<number> {
  const plan = space.plan ?? (await query<{ plan: Plan }>(PLAN, [space.workspaceId]))[0]?.plan;
  if (!plan) throw new ApiError('not_found', 'This space has no workspace.');
  const bytes = limitsOf({ plan }).databaseBytes;
  return bytes === null ? 2 ** 31 - 2 : Math.max(2, Math.floor(bytes / 4096));
}

/** Parameters as SQLite binds them: objects as JSON text, booleans as 0/1. */
function bindable(params: unknown[]): (string | number | null)[] {
  return params.map((p) => {
    if (typeof p === 'boolean') return p ? 1 : 0;
    if (p === null || typeof p === 'string' || typeof p === 'number') return p;
    return JSON.stringify(p);
  });
}

function origin(caller: Caller, kind: 'member' | 'guest') {
  return { kind, city: caller.client.location?.city ?? null, country: caller.client.location?.country ?? null };
}

type Query = { sql: string; params: unknown[]; write: boolean; guest?: { name?: string } };

function checkLength(sql: string): void {
  for (const statement of splitStatements(sql)) {
    if (statement.sql.length > 100_000) throw new ApiError('bad_request', 'A statement is longer than 100,000 characters (the limit per statement).');
  }
}

/** `plan` when this request's own statement read it (LoadedSpace), else it is read before the write. */
type SpaceRef = { id: string; workspaceId: string; plan?: Plan | null };

/** Runs a write holding the space's lock, records its pages and logs it. */
async function runWrite(
  space: SpaceRef,
  caller: Caller,
  job: Omit<RunJob, 'file' | 'op' | 'maxPageCount' | 'maxRows' | 'maxBytes' | 'write'>,
  log: { userId: string | null; guestName: string | null; kind: 'member' | 'guest'; name: string | null },
): Promise<RunResult> {
  const spaceId = space.id;
  const pages = await maxPageCount(space);
  const owner = log.userId === null ? ownerOf(caller) : personOwner(log.userId);
  const release = admitWrite(owner, spaceId);
  try {
    return await withWriteLock(spaceId, config.spacedbTimeoutMs, () => writeLease(owner, spaceId), async (sql, head, file, lease) => {
      const result = await lease.run<RunResult>({ op: 'run', file, ...job, write: true, stamp: head.headSeq + 1, maxPageCount: pages, maxRows: MAX_RESULT_ROWS, maxBytes: MAX_RESULT_BYTES });
      const entry: WriteLogEntry = {
        userId: log.userId,
        guestName: log.guestName,
        origin: origin(caller, log.kind),
        statement: job.sql.length > 10_000 ? `${job.sql.slice(0, 10_000)}…` : job.sql,
        name: log.name,
        rowsWritten: result.rowsWritten,
      };
      // The change, the new head and the log entry in one round trip; a write that changed nothing is only logged.
      if (result.delta) noteCached(spaceId, (await recordDelta(sql, spaceId, head, result.delta, file, entry)).seq);
      else await logWrite(sql, spaceId, entry);
      return result;
    });
  } finally {
    release();
  }
}

export async function runQuery(caller: Caller, spaceId: string, readBody: () => Promise<Query>): Promise<Omit<RunResult, 'delta'>> {
  // The route names the caller from a recent lookup (checksOwnToken): this statement checks the token.
  const loaded = await spaceWith(caller, spaceId, 'view', { ownToken: true });
  return answerQuery(caller, loaded, await readBody());
}

async function answerQuery(caller: Caller, loaded: LoadedSpace, body: Query): Promise<Omit<RunResult, 'delta'>> {
  const spaceId = loaded.space.id;
  const strip = ({ delta: _delta, ...rest }: RunResult) => rest;
  if (body.write && !loaded.permissions.push) {
    if (!caller.actor && body.guest) return strip(await runGuestWrite(loaded, caller, body));
    if (!caller.actor) throw new ApiError('unauthorized', 'Sign in to write to this database (write: true needs push).');
    throw new ApiError('forbidden', 'You cannot write to this database: write: true needs push.');
  }
  checkLength(body.sql);
  const params = bindable(body.params);
  if (body.write) {
    return strip(
      await runWrite({ ...loaded.space, plan: loaded.plan }, caller, { sql: body.sql, params }, { userId: caller.actor!.user.id, guestName: null, kind: 'member', name: null }),
    );
  }
  return strip(
    await readAs<RunResult>(
      ownerOf(caller),
      spaceId,
      (file) => ({ op: 'run', file, sql: body.sql, params, write: false, maxPageCount: 0, maxRows: MAX_RESULT_ROWS, maxBytes: MAX_RESULT_BYTES }),
      loaded.dbHead,
    ),
  );
}

async function guestWritesOf(spaceId: string): Promise<GuestWrite[]> {
  const row = await db.spaceDatabase.findUnique({ where: { spaceId }, select: { guestWrites: true } });
  return (row?.guestWrites as GuestWrite[] | undefined) ?? [];
}

/**
 * A guest (no token) runs one named guest write: `sql` is its name, `params`
 * its parameters. Nothing else a guest sends is run.
 */
async function runGuestWrite(loaded: LoadedSpace, caller: Caller, body: Query): Promise<RunResult> {
  if (!loaded.space.guestWrites) throw new ApiError('forbidden', 'This space does not let guests write to its database.');
  const statement = (await guestWritesOf(loaded.space.id)).find((s) => s.name === body.sql);
  if (!statement) throw new ApiError('bad_request', `No guest write is named "${body.sql.slice(0, 64)}"; a guest sends a guest write's name as sql.`);
  await guestWriteLimit.consume(addressKey(caller.client.address));
  // The name is shown in the writes' log, as a comment's guest name is beside the comment.
  const guestName = body.guest?.name === undefined ? null : cleanGuestName(body.guest.name);
  if (guestName !== null) await checkGuestName(guestName, 'body.guest.name');
  return runWrite({ ...loaded.space, plan: loaded.plan }, caller, { sql: statement.sql, params: bindable(body.params) }, { userId: null, guestName, kind: 'guest', name: statement.name });
}

export async function overview(caller: Caller, spaceId: string): Promise<TablesResult> {
  const loaded = await spaceWith(caller, spaceId, 'view');
  return readAs<TablesResult>(ownerOf(caller), spaceId, (file) => ({ op: 'tables', file, counts: true }), loaded.dbHead);
}

export async function exists(caller: Caller, spaceId: string): Promise<{ hasTables: boolean }> {
  const loaded = await spaceWith(caller, spaceId, 'view');
  const head = loaded.dbHead ?? (await headOf(query, spaceId)).headSeq;
  if (head === 0) return { hasTables: false };
  const { tables } = await readAs<TablesResult>(ownerOf(caller), spaceId, (file) => ({ op: 'tables', file, counts: false }), head);
  return { hasTables: tables.some((t) => t.type === 'table') };
}

export async function getGuestWrites(caller: Caller, spaceId: string): Promise<{ statements: GuestWrite[] }> {
  await spaceWith(caller, spaceId, 'push');
  return { statements: await guestWritesOf(spaceId) };
}

export async function putGuestWrites(caller: Caller, spaceId: string, statements: GuestWrite[]): Promise<{ statements: GuestWrite[] }> {
  await spaceWith(caller, spaceId, 'push');
  const names = new Set<string>();
  for (const s of statements) {
    if (names.has(s.name)) throw new ApiError('bad_request', `Two guest writes are named "${s.name}".`);
    names.add(s.name);
  }
  // Each is prepared by SQLite against the current schema, in the sandbox.
  for (const s of statements) {
    try {
      await readAs(ownerOf(caller), spaceId, (file) => ({ op: 'check', file, sql: s.sql }));
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError('bad_request', `Guest write "${s.name}": ${error.message}`);
      throw error;
    }
  }
  await db.spaceDatabase.upsert({ where: { spaceId }, create: { spaceId, guestWrites: statements }, update: { guestWrites: statements } });
  return { statements };
}

export async function listWrites(caller: Caller, spaceId: string, limit = 100): Promise<{ writes: WriteRecord[] }> {
  await spaceWith(caller, spaceId, 'push');
  const rows = await db.spaceDbWrite.findMany({
    where: { spaceId },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  const userIds = [...new Set(rows.map((r) => r.userId).filter((id): id is string => id !== null))];
  const users = new Map((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, handle: true, name: true } })).map((u) => [u.id, u]));
  return {
    writes: rows.map((r) => ({
      id: r.id,
      at: r.at.getTime(),
      user: (r.userId && users.get(r.userId)) || null,
      guestName: r.guestName,
      origin: r.origin as WriteRecord['origin'],
      name: r.name,
      statement: r.statement,
      rowsWritten: r.rowsWritten,
    })),
  };
}

export async function exportDump(caller: Caller, spaceId: string): Promise<{ filename: string; text: string }> {
  await spaceWith(caller, spaceId, 'push');
  const { text } = await readAs<{ text: string }>(ownerOf(caller), spaceId, (file) => ({ op: 'dump', file }));
  return { filename: `${spaceId}.sql`, text };
}

/** Drops every table, view, index and trigger; `before` is a moment that restores what was. */
export async function resetDatabase(caller: Caller, spaceId: string): Promise<{ before: number }> {
  const loaded = await spaceWith(caller, spaceId, 'admin');
  const pages = await maxPageCount({ ...loaded.space, plan: loaded.plan });
  let before = 0;
  const owner = ownerOf(caller);
  const release = admitJob(owner, spaceId);
  try {
    await withWriteLock(spaceId, config.spacedbTimeoutMs, () => writeLease(owner, spaceId), async (sql, head, file, lease) => {
      const { tables } = await lease.run<TablesResult>({ op: 'tables', file, counts: false });
      const drops = [
        ...tables.filter((t) => t.type === 'view').map((t) => `DROP VIEW IF EXISTS "${t.name.replaceAll('"', '""')}";`),
        ...tables.filter((t) => t.type === 'table').map((t) => `DROP TABLE IF EXISTS "${t.name.replaceAll('"', '""')}";`),
      ];
      // The moment just before the reset's change (history times strictly increase).
      before = nextAt(head).getTime() - 1;
      if (drops.length === 0) return;
      const result = await lease.run<RunResult>({ op: 'run', file, sql: drops.join('\n'), params: [], write: true, stamp: head.headSeq + 1, maxPageCount: pages, maxRows: 0, maxBytes: 0 });
      const entry: WriteLogEntry = { userId: caller.actor!.user.id, guestName: null, origin: origin(caller, 'member'), statement: '-- reset: every table dropped', name: null, rowsWritten: result.rowsWritten };
      if (result.delta) noteCached(spaceId, (await recordDelta(sql, spaceId, head, result.delta, file, entry)).seq);
      else await logWrite(sql, spaceId, entry);
    });
  } finally {
    release();
  }
  return { before };
}

const BOOKMARK = /^bm-(\d{1,10})$/;

/** The change to restore to, and the moment that change stands for. */
async function target(spaceId: string, at: number | string, now: number): Promise<{ seq: number; restoredTo: number }> {
  const oldest = now - HISTORY_MS;
  const bookmark = typeof at === 'string' ? BOOKMARK.exec(at) : null;
  if (bookmark) {
    const seq = Number(bookmark[1]);
    const head = await headOf(query, spaceId);
    if (seq > head.headSeq) throw new ApiError('bad_request', `No bookmark ${at} in this database's history.`);
    const change = seq === 0 ? null : await db.spaceDbChange.findUnique({ where: { spaceId_seq: { spaceId, seq } }, select: { at: true } });
    // The bookmark's state lasted until the next change; it is in the window while that was.
    const next = await db.spaceDbChange.findFirst({ where: { spaceId, seq: { gt: seq } }, orderBy: { seq: 'asc' }, select: { at: true } });
    if (next && next.at.getTime() < oldest) throw new ApiError('bad_request', `Bookmark ${at} is older than 30 days.`);
    return { seq, restoredTo: change?.at.getTime() ?? 0 };
  }
  let ms: number;
  if (typeof at === 'number') ms = at;
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(at)) ms = Date.parse(at);
  else throw new ApiError('bad_request', 'at must be milliseconds since the epoch, an ISO 8601 date-time with a zone (2026-11-22T15:04:05Z), or a bookmark.');
  if (!Number.isFinite(ms)) throw new ApiError('bad_request', `at: ${at} is not a valid date-time.`);
  if (ms < oldest || ms > now) throw new ApiError('bad_request', `at must lie within the last 30 days (from ${new Date(oldest).toISOString()} to now).`);
  const change = await db.spaceDbChange.findFirst({ where: { spaceId, at: { lte: new Date(ms) } }, orderBy: { seq: 'desc' }, select: { seq: true } });
  return { seq: change?.seq ?? 0, restoredTo: ms };
}

/**
 * Point-in-time restore: the state as of `at` becomes the newest change (a
 * whole image), so nothing of the history is lost, and `undoBookmark` (the
 * state before the restore) restores it again.
 */
export async function restoreDatabase(caller: Caller, spaceId: string, at: number | string): Promise<{ restoredTo: number; undoBookmark: string }> {
  await spaceWith(caller, spaceId, 'admin');
  const owner = ownerOf(caller);
  const release = admit(
    [{ key: `restore:${owner.key}`, cap: MAX_RESTORES.person, code: 'rate_limited', message: `You have ${MAX_RESTORES.person} database restores under way; wait for one to finish.` }],
    config.spacedbTimeoutMs,
  );
  const endTurn = await restoreTurn();
  const scratch = scratchFile();
  try {
    const { seq, restoredTo } = await target(spaceId, at, Date.now());
    // Built and stored with no connection held (each query takes one and gives
    // it back), so a long rebuild never holds the pool; then a short
    // transaction records it. A restore runs no query: it needs no process.
    await materialize(query, spaceId, seq, scratch, null);
    const bytes = fs.existsSync(scratch) ? fs.readFileSync(scratch) : Buffer.alloc(0);
    const image = await storeImage(bytes);
    return await withWriteLock(spaceId, config.spacedbTimeoutMs, async () => ({ release() {} }), async (sql, head) => {
      const undoBookmark = `bm-${head.headSeq}`;
      const recorded = await recordImage(sql, spaceId, head, bytes, image);
      installCache(spaceId, recorded.seq, bytes);
      await logWrite(sql, spaceId, {
        userId: caller.actor!.user.id,
        guestName: null,
        origin: origin(caller, 'member'),
        statement: `-- restore to ${new Date(restoredTo).toISOString()} (bm-${seq})`,
        name: null,
        rowsWritten: 0,
      });
      return { restoredTo, undoBookmark };
    });
  } finally {
    removeScratch(scratch);
    endTurn();
    release();
  }
}

// --- as the system ------------------------------------------------------------------
// For code that owns a space's database and has already decided who may do
// what (apps: lib/apps/data.ts). No permission is asked; writes go through the
// same lock, history and write log as the API's, logged as `log` says, with
// the origin of `client` (the visitor's, for an app's guest writes). Reads run
// as the app they are for (`appId`): each app is an owner of its own in the pool.

export type SystemLog = { userId: string | null; guestName: string | null; kind: 'member' | 'guest'; name: string | null };

async function spaceRef(spaceId: string): Promise<SpaceRef> {
  return db.space.findUniqueOrThrow({ where: { id: spaceId }, select: { id: true, workspaceId: true } });
}

export async function systemWrite(spaceId: string, sql: string, params: (string | number | null)[], log: SystemLog, client: Caller['client'] = UNKNOWN_CLIENT): Promise<RunResult> {
  checkLength(sql);
  const caller: Caller = { actor: null, spaceToken: null, client };
  return runWrite(await spaceRef(spaceId), caller, { sql, params }, log);
}

export async function systemRead(appId: string, spaceId: string, sql: string, params: (string | number | null)[] = []): Promise<RunResult> {
  return readAs<RunResult>(appOwner(appId), spaceId, (file) => ({ op: 'run', file, sql, params, write: false, maxPageCount: 0, maxRows: MAX_RESULT_ROWS, maxBytes: MAX_RESULT_BYTES }));
}

export async function systemTables(appId: string, spaceId: string): Promise<TablesResult> {
  const head = await headOf(query, spaceId);
  if (head.headSeq === 0) return { tables: [], databaseSize: 0 };
  return readAs<TablesResult>(appOwner(appId), spaceId, (file) => ({ op: 'tables', file, counts: false }));
}

export async function systemDump(appId: string, spaceId: string): Promise<string> {
  return (await readAs<{ text: string }>(appOwner(appId), spaceId, (file) => ({ op: 'dump', file }))).text;
}
