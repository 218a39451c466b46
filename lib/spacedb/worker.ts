// The child process that runs a space's SQL (started by pool.ts), in a
// sandbox. Reads and writes keep their connections open for the next job
// (withReader, writer; a kept write connection is reset between callers). A
// job that runs past its deadline is stopped by the parent with SIGKILL:
// nothing in node:sqlite can interrupt a running statement.
//
// After a write it hands back the pages the transaction wrote, read from the
// write-ahead log before checkpointing it: that is the space's physical
// history (history.ts), whatever the SQL did (random(), datetime('now'),
// tables with or without a primary key, schema changes).
import fs from 'node:fs';
import path from 'node:path';
import { constants, DatabaseSync, type StatementSync } from 'node:sqlite';
import { splitStatements, type Statement } from './sql.ts';

export type Value = string | number | null | { blob: string };

export type RunJob = {
  op: 'run';
  file: string;
  sql: string;
  params: (string | number | null)[];
  write: boolean;
  /** For a write: the seq its change will have, written into the file's header when it changes anything (file-state.ts). */
  stamp?: number;
  maxPageCount: number;
  maxRows: number;
  maxBytes: number;
};
export type CheckJob = { op: 'check'; file: string; sql: string };
export type TablesJob = { op: 'tables'; file: string; counts: boolean };
export type DumpJob = { op: 'dump'; file: string };
export type Job = RunJob | CheckJob | TablesJob | DumpJob;

/** A committed write's pages. */
export type Delta = { pageSize: number; pageCount: number; pages: { pgno: number; data: Uint8Array }[] };
export type RunResult = { columns: string[]; rows: Value[][]; rowsRead: number; rowsWritten: number; truncated: boolean; delta: Delta | null };
export type TableInfo = { name: string; type: string; columns: { name: string; type: string; notNull: boolean; primaryKey: boolean }[]; rows: number | null; size: number };
export type TablesResult = { tables: TableInfo[]; databaseSize: number };

/**
 * A refusal the parent turns into 400 (or 413 for `too_large`). `cache_fault`
 * is the server's, never the caller's: the file is not the one the history
 * says (or SQLite finds it damaged), and the parent rebuilds it.
 */
export type Refusal = { refused: true; code: RefusalCode; message: string };
type RefusalCode = 'bad_request' | 'too_large' | 'cache_fault';

/** D1's limits (2 MB per row, string or blob; 100 KB of SQL; 100 columns; 100 bound parameters). */
export const LIMITS = { length: 2_000_000, sqlLength: 100_000, column: 100, variableNumber: 100, exprDepth: 100, attach: 0, triggerDepth: 32 };

// D1's allowlist. Those marked settable may also be set (for this request's
// connection only); the others are read-only questions.
const PRAGMAS = new Set(['table_list', 'table_info', 'table_xinfo', 'index_list', 'index_info', 'index_xinfo', 'quick_check', 'foreign_key_check', 'foreign_key_list', 'optimize']);
const SETTABLE = new Set(['case_sensitive_like', 'ignore_check_constraints', 'legacy_alter_table', 'reverse_unordered_selects', 'foreign_keys', 'defer_foreign_keys', 'recursive_triggers']);
const VTABLES = new Set(['fts5', 'fts4', 'fts3', 'rtree']);
const WRITES = new Set([
  constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE, constants.SQLITE_CREATE_INDEX, constants.SQLITE_CREATE_TABLE,
  constants.SQLITE_CREATE_TRIGGER, constants.SQLITE_CREATE_VIEW, constants.SQLITE_DROP_INDEX, constants.SQLITE_DROP_TABLE, constants.SQLITE_DROP_TRIGGER,
  constants.SQLITE_DROP_VIEW, constants.SQLITE_ALTER_TABLE, constants.SQLITE_REINDEX, constants.SQLITE_ANALYZE, constants.SQLITE_CREATE_VTABLE, constants.SQLITE_DROP_VTABLE,
]);

class Refused extends Error {
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
/** True while the worker runs its own statements (transactions, counters), which the sandbox does not apply to. */
let trusted = false;
function own<T>(fn: () => T): T {
  const was = trusted;
  trusted = true;
  try {
    return fn();
  } finally {
    trusted = was;
  }
}
/** Actions seen while preparing (for checking guest writes). */
let seen: { action: number; table: string | null; db: string | null }[] = [];

function open(file: string, mode: { write: boolean; maxPageCount?: number }): DatabaseSync {
  // Reads of a space run side by side (history.ts): a connection that finds the file
  // busy (another one switching a new file to WAL) waits for it rather than failing.
  const db = new DatabaseSync(file, { defensive: true, allowExtension: false, limits: LIMITS, timeout: BUSY_TIMEOUT_MS });
  // No fsyncs: the file is a cache that history.ts rebuilds from Postgres and the blob store.
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA wal_autocheckpoint=0; PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON');
  if (mode.maxPageCount) db.exec(`PRAGMA max_page_count=${Math.max(1, Math.floor(mode.maxPageCount))}`);
  db.setAuthorizer((action, arg1, arg2, dbName) => {
    if (trusted) return constants.SQLITE_OK;
    seen.push({ action, table: arg1, db: dbName });
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
const MAX_KEPT = 16;
const kept = new Map<string, DatabaseSync>();
/** A cache file is named <space>.<generation>.sqlite. */
const spaceOf = (file: string) => path.basename(file).split('.')[0];

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
function withReader<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = reader(file);
  try {
    return fn(db);
  } catch (error) {
    kept.delete(file);
    db.close();
    throw error;
  }
}

/**
 * The write connection kept per file between writes, for the same reason as
 * the readers (opening the file and setting up the sandbox cost a write about
 * 0.6 ms). After each write it is put back to what a new connection is: the
 * settable PRAGMAs at their defaults and every TEMP object dropped, so nothing
 * a caller set or created reaches the next caller. One that failed is closed.
 */
const writers = new Map<string, DatabaseSync>();

// What a new connection has (node's SQLite turns foreign_keys on), read once from a fresh one.
// case_sensitive_like cannot be read: LIKE's answer for 'a' and 'A' tells it (off: true).
const READABLE = [...SETTABLE].filter((name) => name !== 'case_sensitive_like');
const STATE = `SELECT ${READABLE.map((name) => `(SELECT * FROM pragma_${name}()) AS ${name}`).join(', ')}, 'a' LIKE 'A' AS case_insensitive`;
type State = Record<string, number>;
const DEFAULTS: State = (() => {
  const fresh = new DatabaseSync(':memory:', { defensive: true, allowExtension: false });
  const state = fresh.prepare(STATE).get() as State;
  fresh.close();
  return state;
})();

function writer(file: string, maxPageCount: number): DatabaseSync {
  let db = writers.get(file);
  if (!db) {
    // A space's older generations are never asked for again.
    for (const [other, held] of writers) {
      if (spaceOf(other) === spaceOf(file)) {
        writers.delete(other);
        held.close();
      }
    }
    db = open(file, { write: true });
    writers.set(file, db);
    for (const [oldest, held] of writers) {
      if (writers.size <= MAX_KEPT) break;
      writers.delete(oldest);
      held.close();
    }
  } else {
    writers.delete(file);
    writers.set(file, db);
  }
  own(() => db.exec(`PRAGMA max_page_count=${Math.max(1, Math.floor(maxPageCount))}`));
  return db;
}

/**
 * Puts a kept write connection back to a new one's state (TEMP triggers first: one may sit on a main
 * table). Only what differs is set: setting a PRAGMA expires the connection's prepared statements.
 */
function resetWriter(db: DatabaseSync): void {
  own(() => {
    const temps = db.prepare("SELECT type, name FROM temp.sqlite_master WHERE type IN ('trigger', 'view', 'table') ORDER BY type = 'table', type = 'view'").all() as { type: string; name: string }[];
    for (const { type, name } of temps) db.exec(`DROP ${type.toUpperCase()} IF EXISTS temp.${quoteName(name)}`);
    const state = db.prepare(STATE).get() as State;
    for (const name of READABLE) if (Number(state[name]) !== Number(DEFAULTS[name])) db.exec(`PRAGMA ${name}=${Number(DEFAULTS[name])}`);
    if (Number(state.case_insensitive) !== Number(DEFAULTS.case_insensitive)) db.exec(`PRAGMA case_sensitive_like=${DEFAULTS.case_insensitive ? 'OFF' : 'ON'}`);
  });
}

function prepare(db: DatabaseSync, statement: Statement): StatementSync {
  if (statement.keyword === 'VACUUM') throw new Refused('VACUUM is not allowed (the server manages the file).');
  denied = null;
  try {
    return db.prepare(statement.sql);
  } catch (error) {
    if (denied) throw new Refused(denied);
    throw error;
  }
}

function value(v: unknown): Value {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return { blob: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  return v as string | number | null;
}

function sizeOf(v: Value): number {
  if (v === null) return 4;
  if (typeof v === 'object') return v.blob.length + 10;
  return typeof v === 'string' ? v.length + 2 : 8;
}

function walBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** The pages of the committed transactions in the WAL, newest copy of each. */
function readWal(file: string): Delta | null {
  let wal: Buffer;
  try {
    wal = fs.readFileSync(`${file}-wal`);
  } catch {
    return null;
  }
  if (wal.length < 32) return null;
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frame = 24 + pageSize;
  let pending = new Map<number, Uint8Array>();
  let committed: Delta | null = null;
  const pages = new Map<number, Uint8Array>();
  for (let at = 32; at + frame <= wal.length; at += frame) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    pending.set(wal.readUInt32BE(at), wal.subarray(at + 24, at + frame));
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize > 0) {
      for (const [pgno, data] of pending) pages.set(pgno, data);
      pending = new Map();
      committed = { pageSize, pageCount: commitSize, pages: [] };
    }
  }
  if (!committed) return null;
  committed.pages = [...pages].filter(([pgno]) => pgno <= committed!.pageCount).map(([pgno, data]) => ({ pgno, data: new Uint8Array(data) }));
  return committed;
}

function run(job: RunJob): RunResult {
  const statements = splitStatements(job.sql);
  if (statements.length === 0) throw new Refused('sql holds no statement.');
  if (job.params.length > 0 && statements.length > 1) throw new Refused('params can be bound only when sql holds one statement.');
  if (!job.write) return withReader(job.file, (db) => ({ ...execute(db, statements, job), delta: null }));
  const db = writer(job.file, job.maxPageCount);
  let committed = false;
  let failed = true;
  try {
    own(() => db.exec('BEGIN IMMEDIATE'));
    try {
      const result = execute(db, statements, job);
      own(() => db.exec('COMMIT'));
      committed = true;
      // A write that changed the file says which change it is, in a transaction of its own
      // (only then: a write that changes nothing is no change). The log holds only this
      // write's frames: it is emptied after every write.
      if (job.stamp !== undefined && walBytes(job.file) > 0) own(() => db.exec(`PRAGMA user_version=${Math.floor(job.stamp!)}`));
      const delta = readWal(job.file);
      failed = false;
      return { ...result, delta };
    } catch (error) {
      if (db.isTransaction) own(() => db.exec('ROLLBACK'));
      throw error;
    }
  } finally {
    const { busy } = own(() => db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number });
    let kept = !failed && Number(busy) === 0;
    try {
      if (kept) resetWriter(db);
    } catch (error) {
      kept = false;
      throw error;
    } finally {
      if (!kept) {
        writers.delete(job.file);
        db.close();
      }
    }
    // A reader still in a transaction (none should be) would leave the write out of the file's bytes.
    if (committed && Number(busy) !== 0) throw new Refused('The write could not be checkpointed into the cache file.', 'cache_fault');
  }
}

/** Runs the statements on `db`; the answer is the last statement that returns columns (or the last one). */
function execute(db: DatabaseSync, statements: Statement[], job: RunJob): Omit<RunResult, 'delta'> {
  const changes = () => own(() => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n));
  const before = changes();
  let result: Omit<RunResult, 'delta' | 'rowsWritten'> = { columns: [], rows: [], rowsRead: 0, truncated: false };
  let rowsRead = 0;
  for (const statement of statements) {
    const prepared = prepare(db, statement);
    prepared.setReadBigInts(true);
    prepared.setReturnArrays(true);
    const columns = prepared.columns().map((c) => c.name);
    const rows: Value[][] = [];
    let bytes = 0;
    let truncated = false;
    if (columns.length === 0) {
      prepared.run(...job.params);
    } else {
      for (const row of prepared.iterate(...job.params) as Iterable<unknown[]>) {
        rowsRead++;
        if (truncated) continue;
        const converted = row.map(value);
        bytes += converted.reduce((sum: number, v) => sum + sizeOf(v), 0);
        if (rows.length >= job.maxRows || bytes > job.maxBytes) truncated = true;
        else rows.push(converted);
      }
    }
    if (columns.length > 0 || statement === statements[statements.length - 1]) {
      if (columns.length > 0 || result.columns.length === 0) result = { columns, rows, rowsRead: 0, truncated };
    }
  }
  return { ...result, rowsRead, rowsWritten: changes() - before };
}

/** Whether `sql` is exactly one INSERT, UPDATE, DELETE or REPLACE, as SQLite prepares it. */
function check(job: CheckJob): { ok: true } {
  const statements = splitStatements(job.sql);
  if (statements.length !== 1) throw new Refused(`A guest write must be exactly one statement; this holds ${statements.length}.`);
  const [statement] = statements;
  if (!['INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(statement.keyword)) throw new Refused(`A guest write must be one INSERT, UPDATE, DELETE or REPLACE, not ${statement.keyword || 'this'}.`);
  const db = open(job.file, { write: true });
  try {
    seen = [];
    prepare(db, statement);
    const ddl = seen.find((s) => WRITES.has(s.action) && ![constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE].includes(s.action));
    if (ddl) throw new Refused('A guest write cannot change the schema.');
    if (!seen.some((s) => [constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE].includes(s.action) && s.db === 'main')) {
      throw new Refused('A guest write must write to a table of the database.');
    }
    return { ok: true };
  } finally {
    seen = [];
    db.close();
  }
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

function tables(job: TablesJob): TablesResult {
  return withReader(job.file, (db) => {
    const sizes = new Map((db.prepare('SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name').all() as { name: string; size: number }[]).map((r) => [r.name, Number(r.size)]));
    const indexes = db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'").all() as { name: string; tbl_name: string }[];
    const list = db.prepare("SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string; type: string }[];
    const out: TableInfo[] = list.map(({ name, type }) => {
      const columns = (db.prepare(`PRAGMA table_info(${quoteName(name)})`).all() as { name: string; type: string; notnull: number; pk: number }[]).map((c) => ({
        name: c.name,
        type: c.type,
        notNull: Boolean(c.notnull),
        primaryKey: Number(c.pk) > 0,
      }));
      const rows = job.counts && type === 'table' ? Number((db.prepare(`SELECT COUNT(*) AS n FROM ${quoteName(name)}`).get() as { n: number }).n) : null;
      const size = (sizes.get(name) ?? 0) + indexes.filter((i) => i.tbl_name === name).reduce((sum, i) => sum + (sizes.get(i.name) ?? 0), 0);
      return { name, type, columns, rows, size };
    });
    const { n, size } = db.prepare('SELECT page_count AS n, page_size AS size FROM pragma_page_count, pragma_page_size').get() as { n: number; size: number };
    return { tables: out, databaseSize: Number(n) * Number(size) };
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A text value's literal from its bytes (hex), when quote() would not give them back: null for plain UTF-8 text. */
function textLiteral(hex: string | null | undefined): string | null {
  if (!hex) return null;
  const bytes = Buffer.from(hex, 'hex');
  if (!bytes.includes(0)) {
    try {
      strictUtf8.decode(bytes);
      return null;
    } catch {
      // not UTF-8: written from its bytes below
    }
  }
  return `CAST(X'${hex}' AS TEXT)`;
}

/**
 * A plain-text SQL dump: tables (with their rows as literals SQLite's quote()
 * makes, so reals, blobs and text come back exactly; text that is not plain
 * UTF-8 as CAST(X'…' AS TEXT)), sqlite_sequence, then
 * indexes, views and triggers, so that triggers do not fire while replaying.
 */
function dump(job: DumpJob): { text: string } {
  return withReader(job.file, (db) => {
    const lines: string[] = ['-- Atrium space database dump', 'PRAGMA foreign_keys=OFF;'];
    const schema = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid").all() as { type: string; name: string; tbl_name: string; sql: string }[];
    const userTables = schema.filter((s) => s.type === 'table' && !s.name.startsWith('sqlite_'));
    for (const table of userTables) {
      lines.push(`${table.sql};`);
      // Shadow tables of virtual tables are filled by their module.
      if (/^CREATE\s+VIRTUAL\s+TABLE/i.test(table.sql)) continue;
      const columns = (db.prepare(`PRAGMA table_info(${quoteName(table.name)})`).all() as { name: string }[]).map((c) => c.name);
      const shadow = userTables.some((t) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql) && table.name.startsWith(`${t.name}_`));
      if (shadow) continue;
      // Each value as quote() writes it, and each text also as hex: text holding a NUL or bytes
      // that are not UTF-8 is written from its bytes, since quote() and JavaScript strings change it.
      const select = `SELECT ${columns.map((c, i) => `quote(${quoteName(c)}) AS q${i}, CASE WHEN typeof(${quoteName(c)}) = 'text' THEN hex(${quoteName(c)}) END AS h${i}`).join(', ')} FROM ${quoteName(table.name)} ORDER BY rowid`;
      let statement: StatementSync;
      try {
        statement = db.prepare(select);
      } catch {
        statement = db.prepare(select.replace(/ ORDER BY rowid$/, '')); // WITHOUT ROWID
      }
      const target = `${quoteName(table.name)}(${columns.map(quoteName).join(',')})`;
      for (const row of statement.iterate() as Iterable<Record<string, string | null>>) {
        const values = columns.map((_, i) => textLiteral(row[`h${i}`]) ?? row[`q${i}`]);
        lines.push(`INSERT INTO ${target} VALUES(${values.join(',')});`);
      }
    }
    const sequence = schema.some((s) => s.name === 'sqlite_sequence') ? (db.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[]) : [];
    if (sequence.length) {
      lines.push('DELETE FROM sqlite_sequence;');
      for (const s of sequence) lines.push(`INSERT INTO sqlite_sequence(name,seq) VALUES(${db.prepare('SELECT quote(?) AS q').get(s.name)!.q},${Number(s.seq)});`);
    }
    for (const kind of ['index', 'view', 'trigger']) {
      for (const s of schema.filter((x) => x.type === kind && !x.name.startsWith('sqlite_'))) lines.push(`${s.sql};`);
    }
    return { text: `${lines.join('\n')}\n` };
  });
}

function handle(job: Job): unknown {
  switch (job.op) {
    case 'run':
      return run(job);
    case 'check':
      return check(job);
    // The worker's own SQL over the schema: no sandbox needed.
    case 'tables':
      return own(() => tables(job));
    case 'dump':
      return own(() => dump(job));
  }
}

// SQLite's primary result codes for a damaged file.
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

function describe(error: unknown): Refusal {
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

if (process.send) {
  // SQLite's own memory stays bounded whatever a query asks for.
  new DatabaseSync(':memory:').exec('PRAGMA hard_heap_limit=536870912');
  process.on('message', (message: { id: number; job: Job }) => {
    let answer: unknown;
    try {
      answer = { id: message.id, ok: handle(message.job) };
    } catch (error) {
      answer = { id: message.id, error: describe(error) };
    }
    process.send!(answer);
  });
  // The first message says the process is ready: the pool starts a job's deadline from it.
  process.send({ ready: true });
  process.on('disconnect', () => process.exit(0));
}
