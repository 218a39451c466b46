// The child process that runs a space's SQL (started by pool.ts), in the
// sandbox (sandbox.ts). Reads and writes keep their connections open for the next job
// (withReader, writer; a kept write connection is reset between callers). A
// job that runs past its deadline is stopped by the parent with SIGKILL:
// nothing in node:sqlite can interrupt a running statement.
//
// After a write it hands back the pages the transaction wrote, read from the
// write-ahead log before checkpointing it: that is the space's physical
// history (history.ts), whatever the SQL did (random(), datetime('now'),
// tables with or without a primary key, schema changes).
import fs from 'node:fs';
import { constants, DatabaseSync, type StatementSync } from 'node:sqlite';
import { type Answer, describe, execute, MAX_KEPT, open, own, prepareWatching, Refused, SETTABLE, spaceOf, withReader, WRITES } from './sandbox.ts';
import { splitStatements } from './sql.ts';

export type { Refusal, Value } from './sandbox.ts';

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
export type RunResult = Answer & { delta: Delta | null };
export type TableInfo = { name: string; type: string; columns: { name: string; type: string; notNull: boolean; primaryKey: boolean }[]; rows: number | null; size: number };
export type TablesResult = { tables: TableInfo[]; databaseSize: number };



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

/** Whether `sql` is exactly one INSERT, UPDATE, DELETE or REPLACE, as SQLite prepares it. */
function check(job: CheckJob): { ok: true } {
  const statements = splitStatements(job.sql);
  if (statements.length !== 1) throw new Refused(`A guest write must be exactly one statement; this holds ${statements.length}.`);
  const [statement] = statements;
  if (!['INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(statement.keyword)) throw new Refused(`A guest write must be one INSERT, UPDATE, DELETE or REPLACE, not ${statement.keyword || 'this'}.`);
  const db = open(job.file, { write: true });
  try {
    const { actions: seen } = prepareWatching(db, statement);
    const ddl = seen.find((s) => WRITES.has(s.action) && ![constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE].includes(s.action));
    if (ddl) throw new Refused('A guest write cannot change the schema.');
    if (!seen.some((s) => [constants.SQLITE_INSERT, constants.SQLITE_UPDATE, constants.SQLITE_DELETE].includes(s.action) && s.db === 'main')) {
      throw new Refused('A guest write must write to a table of the database.');
    }
    return { ok: true };
  } finally {
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
