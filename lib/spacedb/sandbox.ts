// The sandbox a space's SQL runs in, wherever it runs: D1's limits, an
// authorizer that allows one database, no transactions of the caller's own and
// D1's PRAGMAs, read connections kept open per file, and the conversion of
// rows and errors into the API's answer. The query processes (worker.ts) run
// every job in it; the web process runs only reads proven bounded (bounded.ts).
import path from 'node:path';
import { constants, DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Statement } from './sql.ts';

export type Value = string | number | null | { blob: string };

/** A statement's answer, as the API gives it. */
export type Answer = { columns: string[]; rows: Value[][]; rowsRead: number; rowsWritten: number; truncated: boolean };
/** What a run binds and how much of its answer is kept. */
export type Execution = { params: (string | number | null)[]; maxRows: number; maxBytes: number };

/**
 * A refusal the parent turns into 400 (or 413 for `too_large`). `cache_fault`
 * is the server's, never the caller's: the file is not the one the history
 * says (or SQLite finds it damaged), and the parent rebuilds it.
 */
export type Refusal = { refused: true; code: RefusalCode; message: string };
export type RefusalCode = 'bad_request' | 'too_large' | 'cache_fault';

/** D1's limits (2 MB per row, string or blob; 100 KB of SQL; 100 columns; 100 bound parameters). */
export const LIMITS = { length: 2_000_000, sqlLength: 100_000, column: 100, variableNumber: 100, exprDepth: 100, attach: 0, triggerDepth: 32 };

// D1's allowlist. Those marked settable may also be set (for this request's
// connection only); the others are read-only questions.
const PRAGMAS = new Set(['table_list', 'table_info', 'table_xinfo', 'index_list', 'index_info', 'index_xinfo', 'quick_check', 'foreign_key_check', 'foreign_key_list', 'optimize']);
export const SETTABLE = new Set(['case_sensitive_like', 'ignore_check_constraints', 'legacy_alter_table', 'reverse_unordered_selects', 'foreign_keys', 'defer_foreign_keys', 'recursive_triggers']);
const VTABLES = new Set(['fts5', 'fts4', 'fts3', 'rtree']);
export const WRITES = new Set([
  constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE, constants.SQLITE_CREATE_INDEX, constants.SQLITE_CREATE_TABLE,
  constants.SQLITE_CREATE_TRIGGER, constants.SQLITE_CREATE_VIEW, constants.SQLITE_DROP_INDEX, constants.SQLITE_DROP_TABLE, constants.SQLITE_DROP_TRIGGER,
  constants.SQLITE_DROP_VIEW, constants.SQLITE_ALTER_TABLE, constants.SQLITE_REINDEX, constants.SQLITE_ANALYZE, constants.SQLITE_CREATE_VTABLE, constants.SQLITE_DROP_VTABLE,
]);

export class Refused extends Error {
  readonly code: RefusalCode;
  constructor(message: string, code: RefusalCode = 'bad_request') {
    super(message);
    this.code = code;
  }
}

/** How long a connection waits for a lock another holds; the job's own deadline still applies. */
const BUSY_TIMEOUT_MS = 5_000;

/** The last reason the authorizer gave for a denial, for the error message. */
let denied: string | null = null;
/** True while the server runs its own statements (transactions, counters), which the sandbox does not apply to. */
let trusted = false;
export function own<T>(fn: () => T): T {
  const was = trusted;
  trusted = true;
  try {
    return fn();
  } finally {
    trusted = was;
  }
}
/** What a statement does, as the authorizer is asked while preparing it (prepareWatching). */
export type Action = { action: number; table: string | null; db: string | null };
let seen: Action[] | null = null;

export function open(file: string, mode: { write: boolean; maxPageCount?: number }): DatabaseSync {
  // Reads of a space run side by side (history.ts): a connection that finds the file
  // busy (another one switching a new file to WAL) waits for it rather than failing.
  const db = new DatabaseSync(file, { defensive: true, allowExtension: false, limits: LIMITS, timeout: BUSY_TIMEOUT_MS });
  // No fsyncs: the file is a cache that history.ts rebuilds from Postgres and the blob store.
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA wal_autocheckpoint=0; PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON');
  if (mode.maxPageCount) db.exec(`PRAGMA max_page_count=${Math.max(1, Math.floor(mode.maxPageCount))}`);
  db.setAuthorizer((action, arg1, arg2, dbName) => {
    if (trusted) return constants.SQLITE_OK;
    seen?.push({ action, table: arg1, db: dbName });
    const deny = (reason: string) => {
      denied ??= reason;
      return constants.SQLITE_DENY;
    };
    switch (action) {
      case constants.SQLITE_ATTACH:
      case constants.SQLITE_DETACH:
        return deny('ATTACH and DETACH are not allowed: a space has one database.');
      case constants.SQLITE_TRANSACTION:
      case constants.SQLITE_SAVEPOINT:
        return deny('BEGIN, COMMIT, ROLLBACK and SAVEPOINT are not allowed: each request runs as one transaction.');
      case constants.SQLITE_PRAGMA: {
        const name = (arg1 ?? '').toLowerCase();
        if (PRAGMAS.has(name) || (SETTABLE.has(name) && (mode.write || arg2 === null))) return constants.SQLITE_OK;
        if (SETTABLE.has(name)) return deny(`PRAGMA ${name} can be set only with write: true.`);
        return deny(`PRAGMA ${name} is not allowed; allowed: ${[...PRAGMAS, ...SETTABLE].join(', ')}.`);
      }
      case constants.SQLITE_FUNCTION:
        if ((arg2 ?? '').toLowerCase() === 'load_extension') return deny('load_extension() is not allowed.');
        return constants.SQLITE_OK;
      case constants.SQLITE_CREATE_VTABLE:
        if (!VTABLES.has((arg2 ?? '').toLowerCase())) return deny(`Virtual tables of module ${arg2} are not allowed; allowed: ${[...VTABLES].join(', ')}.`);
        break;
    }
    if (!mode.write && WRITES.has(action) && dbName !== 'temp') {
      return deny(`This statement writes${arg1 ? ` (${arg1})` : ''}; it was not run. Send write: true to change the database.`);
    }
    return constants.SQLITE_OK;
  });
  return db;
}

/**
 * Read connections kept open between jobs, least recently used first: opening
 * a file and setting up its sandbox is most of a point read's work here. Safe
 * because the parent never rewrites a file bytewise (history.ts: a catch-up or
 * rebuild is a new generation, a new name); writes go through SQLite, which
 * tells every connection, in any process, through the -shm file.
 */
export const MAX_KEPT = 16;
const kept = new Map<string, DatabaseSync>();
/** A cache file is named <space>.<generation>.sqlite. */
export const spaceOf = (file: string) => path.basename(file).split('.')[0];

function reader(file: string): DatabaseSync {
  const held = kept.get(file);
  if (held) {
    kept.delete(file);
    kept.set(file, held);
    return held;
  }
  // A space's older generations are never asked for again.
  for (const [other, db] of kept) {
    if (spaceOf(other) === spaceOf(file)) {
      kept.delete(other);
      db.close();
    }
  }
  const db = open(file, { write: false });
  own(() => db.exec('PRAGMA query_only=ON'));
  kept.set(file, db);
  for (const [oldest, db] of kept) {
    if (kept.size <= MAX_KEPT) break;
    kept.delete(oldest);
    db.close();
  }
  return db;
}

/**
 * Runs `fn` on the file's kept read connection (query_only: a read leaves
 * nothing of its own in it, not even a temporary table). One whose job failed
 * is closed rather than trusted with the next.
 */
export function withReader<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = reader(file);
  try {
    return fn(db);
  } catch (error) {
    kept.delete(file);
    db.close();
    throw error;
  }
}

export function prepare(db: DatabaseSync, statement: Statement): StatementSync {
  if (statement.keyword === 'VACUUM') throw new Refused('VACUUM is not allowed (the server manages the file).');
  denied = null;
  try {
    return db.prepare(statement.sql);
  } catch (error) {
    if (denied) throw new Refused(denied);
    throw error;
  }
}

export function value(v: unknown): Value {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return { blob: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  return v as string | number | null;
}

function sizeOf(v: Value): number {
  if (v === null) return 4;
  if (typeof v === 'object') return v.blob.length + 10;
  return typeof v === 'string' ? v.length + 2 : 8;
}

/** Prepares `statement` in the sandbox, with what the authorizer was asked for it. */
export function prepareWatching(db: DatabaseSync, statement: Statement): { prepared: StatementSync; actions: Action[] } {
  const actions: Action[] = [];
  seen = actions;
  try {
    return { prepared: prepare(db, statement), actions };
  } finally {
    seen = null;
  }
}
/** A prepared statement's rows as the API gives them: as many as `job` keeps, the rest counted. */
export function rowsOf(prepared: StatementSync, job: Execution): { rows: Value[][]; rowsRead: number; truncated: boolean } {
  prepared.setReadBigInts(true);
  prepared.setReturnArrays(true);
  const rows: Value[][] = [];
  let rowsRead = 0;
  let bytes = 0;
  let truncated = false;
  for (const row of prepared.iterate(...job.params) as Iterable<unknown[]>) {
    rowsRead++;
    if (truncated) continue;
    const converted = row.map(value);
    bytes += converted.reduce((sum: number, v) => sum + sizeOf(v), 0);
    if (rows.length >= job.maxRows || bytes > job.maxBytes) truncated = true;
    else rows.push(converted);
  }
  return { rows, rowsRead, truncated };
}

/** Runs the statements on `db`; the answer is the last statement that returns columns (or the last one). */
export function execute(db: DatabaseSync, statements: Statement[], job: Execution): Answer {
  const changes = () => own(() => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n));
  const before = changes();
  let result: Omit<Answer, 'rowsWritten'> = { columns: [], rows: [], rowsRead: 0, truncated: false };
  let rowsRead = 0;
  for (const statement of statements) {
    const prepared = prepare(db, statement);
    const columns = prepared.columns().map((c) => c.name);
    let answer = { rows: [] as Value[][], rowsRead: 0, truncated: false };
    if (columns.length === 0) prepared.run(...job.params);
    else answer = rowsOf(prepared, job);
    rowsRead += answer.rowsRead;
    if (columns.length > 0 || statement === statements[statements.length - 1]) {
      if (columns.length > 0 || result.columns.length === 0) result = { columns, rows: answer.rows, rowsRead: 0, truncated: answer.truncated };
    }
  }
  return { ...result, rowsRead, rowsWritten: changes() - before };
}

// SQLite's primary result codes for a damaged file.
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

export function describe(error: unknown): Refusal {
  if (error instanceof Refused) return { refused: true, code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const primary = Number((error as { errcode?: unknown }).errcode) & 0xff;
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB) return { refused: true, code: 'cache_fault', message: `SQLite: ${message}` };
  if (/database or disk is full/i.test(message)) return { refused: true, code: 'too_large', message: "The space's database is full: it reached its plan's size limit." };
  if (/string or blob too big|too many columns|too many SQL variables|Expression tree is too large|statement too long/i.test(message)) {
    return { refused: true, code: 'bad_request', message: `Over a limit: ${message} (limits: ${LIMITS.length} bytes per value, ${LIMITS.sqlLength} bytes of SQL, ${LIMITS.column} columns, ${LIMITS.variableNumber} parameters, expression depth ${LIMITS.exprDepth}).` };
  }
  return { refused: true, code: 'bad_request', message: `SQLite: ${message}` };
}
