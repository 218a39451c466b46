// Reads that cannot run away, answered in the web process itself instead of
// a query process (pool.ts): a point read by primary key or unique index is
// most of what apps ask, and the hop to a query process and back costs more
// than the read. A statement qualifies when its bytecode (EXPLAIN) is straight
// line: no loop, no sort, no subroutine, no function or operator that builds
// values, each column and each parameter read at most twice. Such a statement
// does a fixed number of steps over at most one row, and a row is at most
// D1's 2 MB (its parameters, here, at most 1 MB together), so it ends within
// milliseconds and its answer stays small whatever the data: it needs no
// deadline, which node:sqlite could not enforce here. Everything else goes to
// the query processes, whose deadline kills runaways.
//
// It runs in the same sandbox (sandbox.ts) on a kept read connection of the
// same file, under the same per-space read lock (history.ts), so it sees what
// a query process would. The verdict is kept per connection and statement,
// and asked again whenever the schema changed (SQLite then prepares the
// statement anew, with new bytecode).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { JobRefused } from './pool.ts';
import { type Answer, describe, own, prepare, rowsOf, withReader } from './sandbox.ts';
import { splitStatements } from './sql.ts';
import type { RunJob } from './worker.ts';

/** Opcodes of a straight-line read: open, seek one key, read columns, compare, answer, halt. */
const STRAIGHT = new Set([
  'Init', 'Transaction', 'TableLock', 'Goto', 'OpenRead', 'ColumnsUsed',
  'Variable', 'Integer', 'Int64', 'Real', 'String8', 'Null', 'MustBeInt', 'Affinity', 'RealAffinity',
  'SeekRowid', 'NotExists', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'IdxGE', 'IdxGT', 'IdxLE', 'IdxLT', 'DeferredSeek', 'IdxRowid',
  'Rowid', 'Column', 'IsNull', 'NotNull', 'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'ResultRow', 'Halt', 'Noop',
]);
/** Of those, the ones whose p2 is a jump target (forward only, or the code would loop). */
const JUMPS = new Set(['Init', 'Goto', 'SeekRowid', 'NotExists', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'IdxGE', 'IdxGT', 'IdxLE', 'IdxLT', 'IsNull', 'NotNull', 'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'MustBeInt']);

type Op = { addr: number; opcode: string; p1: number; p2: number };

/** Whether a statement's bytecode is straight line (see above). */
export function straightLine(ops: Op[]): boolean {
  const last = ops.length - 1;
  const reads = new Map<string, number>();
  for (const op of ops) {
    if (!STRAIGHT.has(op.opcode)) return false;
    // The one jump back: from the end of the start-up block (after Transaction) to the body.
    if (JUMPS.has(op.opcode) && op.p2 <= op.addr && !(op.opcode === 'Goto' && op.addr === last && op.p2 === 1)) return false;
    // A value copied into the answer many times would make a small row a large answer.
    if (op.opcode === 'Column' || op.opcode === 'Variable') {
      const key = `${op.opcode} ${op.p1}:${op.opcode === 'Column' ? op.p2 : ''}`;
      const times = (reads.get(key) ?? 0) + 1;
      if (times > 2) return false;
      reads.set(key, times);
    }
  }
  return ops.length > 0 && ops[0].opcode === 'Init';
}

type Verdict = { schema: number; statement: StatementSync | null };
/** Per kept connection: its schema version statement and the verdicts on statements it was asked. */
type Known = { schema: StatementSync; verdicts: Map<string, Verdict> };
const known = new WeakMap<DatabaseSync, Known>();
const MAX_VERDICTS = 256;

function knownOf(db: DatabaseSync): Known {
  let entry = known.get(db);
  if (!entry) {
    entry = { schema: own(() => db.prepare('PRAGMA schema_version')), verdicts: new Map() };
    known.set(db, entry);
  }
  return entry;
}

/**
 * The statement prepared in the sandbox when it is straight line, else null
 * (a query process runs it, errors included). A connection prepares against
 * the schema it last read, which another connection's write may have changed;
 * reading the schema table first loads the current one, so that the bytecode
 * judged is the bytecode that runs (a statement prepared against an old schema
 * is prepared anew when it runs, unjudged).
 */
function judge(db: DatabaseSync, sql: string): StatementSync | null {
  const statements = splitStatements(sql);
  if (statements.length !== 1 || statements[0].keyword !== 'SELECT') return null;
  own(() => db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get());
  let prepared: StatementSync;
  try {
    prepared = prepare(db, statements[0]);
  } catch {
    return null;
  }
  const ops = own(() => db.prepare(`EXPLAIN ${statements[0].sql}`).all()) as Op[];
  return straightLine(ops) ? prepared : null;
}

/** The most a read's parameters may hold together (characters of text, bytes of JSON) to run here. */
const MAX_PARAMS_SIZE = 1024 * 1024;

/**
 * The answer to a read job when its statement is straight line, run here;
 * null when a query process must run it. SQLite's errors are thrown as the
 * query processes' refusals are (a damaged file as a cache fault).
 */
export function runBounded(job: RunJob): Answer | null {
  if (job.write) return null;
  if (job.params.reduce((size: number, p) => size + (typeof p === 'string' ? p.length : 8), 0) > MAX_PARAMS_SIZE) return null;
  try {
    return withReader(job.file, (db) => {
      const entry = knownOf(db);
      const schema = Number((own(() => entry.schema.get()) as { schema_version: number }).schema_version);
      let verdict = entry.verdicts.get(job.sql);
      if (!verdict || verdict.schema !== schema) verdict = { schema, statement: judge(db, job.sql) };
      // Least recently asked first out.
      entry.verdicts.delete(job.sql);
      entry.verdicts.set(job.sql, verdict);
      if (entry.verdicts.size > MAX_VERDICTS) entry.verdicts.delete(entry.verdicts.keys().next().value!);
      if (!verdict.statement) return null;
      const columns = verdict.statement.columns().map((c) => c.name);
      return { columns, ...rowsOf(verdict.statement, job), rowsWritten: 0 };
    });
  } catch (error) {
    // Opening or reading the file may fail (damaged: a cache fault, rebuilt by history.ts), as in a query process.
    throw new JobRefused(describe(error));
  }
}
