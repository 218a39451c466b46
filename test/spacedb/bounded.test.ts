// Reads answered in the web process (lib/spacedb/bounded.ts): only statements
// whose bytecode is straight line run there; anything that could loop, sort,
// call a function or build values goes to a query process, whose deadline can
// stop it. The verdict follows the schema, and a kept statement never holds
// the file open in a way that stops a write's checkpoint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBounded, straightLine } from '@/lib/spacedb/bounded.ts';
import { JobRefused } from '@/lib/spacedb/pool.ts';
import type { RunJob } from '@/lib/spacedb/worker.ts';

const SCHEMA = `
  CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT, n INTEGER);
  CREATE TABLE people (email TEXT PRIMARY KEY, name TEXT);
  CREATE TABLE pairs (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
  CREATE TABLE grid (a, b, c);
  CREATE UNIQUE INDEX grid_ab ON grid (a, b);
  CREATE INDEX grid_c ON grid (c);`;

describe('straight-line bytecode', () => {
  const memory = new DatabaseSync(':memory:');
  memory.exec(SCHEMA);
  const verdict = (sql: string) => straightLine(memory.prepare(`EXPLAIN ${sql}`).all() as never);

  it.each([
    'SELECT * FROM items WHERE id = ?',
    'SELECT body AS text FROM items WHERE id = 42',
    "SELECT * FROM items WHERE id = ? AND body = 'x'",
    'SELECT * FROM people WHERE email = ?',
    'SELECT v FROM pairs WHERE k = ?',
    'SELECT * FROM grid WHERE a = ? AND b = ?',
    // One row needs no sort (SQLite leaves it out), and one row joins one row by key.
    'SELECT * FROM items JOIN items AS other ON other.id = items.n WHERE items.id = ?',
    'SELECT * FROM items WHERE id = ? ORDER BY body',
  ])('runs in the web process: %s', (sql) => expect(verdict(sql)).toBe(true));

  it.each([
    ['a scan', 'SELECT * FROM items'],
    ['a range', 'SELECT * FROM items WHERE id >= ? LIMIT 100'],
    ['a non-unique index', 'SELECT * FROM grid WHERE c = ?'],
    ['a part of a unique index', 'SELECT * FROM grid WHERE a = ?'],
    ['an IN list (a loop over the list)', 'SELECT * FROM items WHERE id IN (1, 2, 3)'],
    ['a function call', 'SELECT upper(body) FROM items WHERE id = ?'],
    ['a concatenation', 'SELECT body || body FROM items WHERE id = ?'],
    ['arithmetic', 'SELECT n * 2 FROM items WHERE id = ?'],
    ['a column read three times', 'SELECT body, body, body FROM items WHERE id = ?'],
    ['a parameter read three times', 'SELECT ?1, ?1, ?1 FROM items WHERE id = 1'],
    ['a subquery', 'SELECT * FROM items WHERE id = (SELECT max(id) FROM items)'],
    ['a join that loops', 'SELECT * FROM items JOIN grid ON grid.c = items.n WHERE items.id = ?'],
    ['an aggregate', 'SELECT count(*) FROM items WHERE id = ?'],
    ['a recursive runaway', 'SELECT * FROM items WHERE id = (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c)'],
    ['a sort', 'SELECT * FROM grid WHERE c = ? ORDER BY a'],
  ])('goes to a query process: %s', (_why, sql) => expect(verdict(sql)).toBe(false));
});

describe('runBounded', () => {
  let folder: string;
  let file: string;
  const job = (sql: string, params: (string | number | null)[] = []): RunJob => ({ op: 'run', file, sql, params, write: false, maxPageCount: 0, maxRows: 10_000, maxBytes: 8 * 1024 * 1024 });
  const writer = () => {
    const db = new DatabaseSync(file);
    db.exec('PRAGMA journal_mode=WAL');
    return db;
  };

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bounded-'));
    file = path.join(folder, 'space.1.sqlite');
    const db = writer();
    db.exec(SCHEMA);
    db.exec("INSERT INTO items (id, body, n) VALUES (1, 'one', 10), (2, 'two', 20), (9007199254740993, 'big', 1)");
    db.close();
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('answers a point read as a query process would (columns, rows, counts, large integers as text)', () => {
    expect(runBounded(job('SELECT * FROM items WHERE id = ?', [2]))).toEqual({ columns: ['id', 'body', 'n'], rows: [[2, 'two', 20]], rowsRead: 1, rowsWritten: 0, truncated: false });
    expect(runBounded(job('SELECT * FROM items WHERE id = ?', [3]))).toEqual({ columns: ['id', 'body', 'n'], rows: [], rowsRead: 0, rowsWritten: 0, truncated: false });
    expect(runBounded(job('SELECT id FROM items WHERE id = 9007199254740993'))?.rows).toEqual([['9007199254740993']]);
  });

  it('leaves what could run long, and every write, to a query process', () => {
    expect(runBounded(job('SELECT * FROM items'))).toBeNull();
    expect(runBounded(job('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c'))).toBeNull();
    expect(runBounded(job('SELECT * FROM items WHERE id = 1; SELECT * FROM items WHERE id = 2'))).toBeNull();
    expect(runBounded({ ...job("INSERT INTO items (body) VALUES ('x')"), write: true })).toBeNull();
    // A statement SQLite or the sandbox refuses is answered by the query process, with its message.
    expect(runBounded(job('SELECT * FROM nowhere WHERE id = ?', [1]))).toBeNull();
    // Large parameters could make a large answer of a one-row read.
    expect(runBounded(job('SELECT ?, ? FROM items WHERE id = 1', ['x'.repeat(600_000), 'y'.repeat(600_000)]))).toBeNull();
    expect(runBounded(job('SELECT ?, ? FROM items WHERE id = 1', ['x', 'y']))?.rows).toEqual([['x', 'y']]);
  });

  it('refuses a bad binding as the query process does', () => {
    expect(() => runBounded(job('SELECT * FROM items WHERE id = ?', [1, 2]))).toThrow(JobRefused);
  });

  it('asks again when the schema changes: a table replaced by a view that runs away is not run here', () => {
    const sql = 'SELECT * FROM people WHERE email = ?';
    expect(runBounded(job(sql, ['a@example.com']))).not.toBeNull();
    const db = writer();
    db.exec(`DROP TABLE people; CREATE VIEW people AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS email, x AS name FROM c`);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    expect(runBounded(job(sql, ['a@example.com']))).toBeNull();
  });

  it('holds no read transaction between reads: a write on another connection checkpoints the whole log', () => {
    expect(runBounded(job('SELECT * FROM items WHERE id = ?', [1]))?.rows).toEqual([[1, 'one', 10]]);
    const db = writer();
    db.exec("UPDATE items SET body = 'uno' WHERE id = 1");
    const { busy } = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    db.close();
    expect(Number(busy)).toBe(0);
    expect(runBounded(job('SELECT body FROM items WHERE id = ?', [1]))?.rows).toEqual([['uno']]);
  });
});
