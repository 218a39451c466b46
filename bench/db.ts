// Space databases: a point query and a one-row insert through the API (HTTP,
// authentication, the child-process pool, the cache check against Postgres,
// and for the insert the write lock and the page history) beside the same
// statement on a direct node:sqlite connection to the same data, in the same
// run; then the time to restore a 10 MB database with 10,000 writes of history.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrate } from '../lib/db/migrate.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, devToken, startServer, workDir } from './server.ts';

async function timed(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - started) / n;
}

export async function run(context: BenchContext) {
  const { url } = await benchDatabase('db', context.onStop);
  await migrate(url);
  const dataDir = path.join(workDir, 'db-data');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const base = await startServer('db', 'test/fixtures/api-server.ts', context.onStop, { DATABASE_URL: url, DATA_DIR: dataDir, DEV_AUTH: 'true', LOG_REQUESTS: 'false' });
  const token = await devToken(base, 'bench');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (pathname: string, body: unknown) => {
    const response = await fetch(base + pathname, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await response.json();
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const space = await post('/v1/spaces', { workspace: 'bench', name: 'Bench' });
  const query = (sql: string, params: unknown[] = [], write = false) => post(`/v1/spaces/${space.id}/db/query`, { sql, params, write });

  const rows = context.quick ? 1_000 : 10_000;
  const writes = context.quick ? 1_000 : 10_000;
  // ~10 MB: rows of ~1 KB, in batches through the API.
  const rowBytes = Math.round((10 * 1024 * 1024) / rows);
  await query(`CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT, n INTEGER)`, [], true);
  for (let start = 0; start < rows; start += 1000) {
    await query(`INSERT INTO items (body, n) SELECT hex(randomblob(${rowBytes / 2})), x FROM (WITH RECURSIVE c(x) AS (SELECT ${start + 1} UNION ALL SELECT x + 1 FROM c WHERE x < ${Math.min(rows, start + 1000)}) SELECT x FROM c)`, [], true);
  }
  const size = (await (await fetch(`${base}/v1/spaces/${space.id}/db`, { headers })).json()).databaseSize as number;

  // The same data, on a direct connection: a copy made by the dump.
  const exported = await (await fetch(`${base}/v1/spaces/${space.id}/db/export`, { headers })).text();
  const directFile = path.join(workDir, 'db-direct.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(directFile + suffix, { force: true });
  const direct = new DatabaseSync(directFile);
  direct.exec('PRAGMA journal_mode=WAL');
  direct.exec(`BEGIN; ${exported}; COMMIT;`);
  const point = direct.prepare('SELECT id, n FROM items WHERE id = ?');
  const insert = direct.prepare('INSERT INTO items (body, n) VALUES (?, ?)');

  const n = context.quick ? 50 : 300;
  const apiRead = await timed(n, (i) => query('SELECT id, n FROM items WHERE id = ?', [(i % rows) + 1]));
  const directRead = await timed(n, (i) => point.get((i % rows) + 1));
  const apiWrite = await timed(n, (i) => query('INSERT INTO items (body, n) VALUES (?, ?)', ['x', i], true));
  const directWrite = await timed(n, (i) => insert.run('x', i));
  direct.close();

  // History: `writes` small writes, then restore to before them.
  const before = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const writeStarted = performance.now();
  for (let i = 0; i < writes; i++) await query('UPDATE items SET n = n + 1 WHERE id = ?', [(i * 7919) % rows + 1], true);
  const perWrite = (performance.now() - writeStarted) / writes;
  const restoreStarted = performance.now();
  await post(`/v1/spaces/${space.id}/db/restore`, { at: before });
  const restoreMs = performance.now() - restoreStarted;
  const undoStarted = performance.now();
  const latest = await post(`/v1/spaces/${space.id}/db/restore`, { at: Date.now() });
  const undoMs = performance.now() - undoStarted;
  void latest;

  const ms = (x: number) => `${x.toFixed(3)} ms`;
  console.log(`db: ${rows.toLocaleString('en')} rows, ${(size / 1024 / 1024).toFixed(1)} MB`);
  console.log(`  point query   API ${ms(apiRead)}  direct ${ms(directRead)}  ratio ${(apiRead / directRead).toFixed(0)}x`);
  console.log(`  one-row insert API ${ms(apiWrite)}  direct ${ms(directWrite)}  ratio ${(apiWrite / directWrite).toFixed(0)}x`);
  console.log(`  ${writes.toLocaleString('en')} writes of history: ${ms(perWrite)} each`);
  console.log(`  restore to before them: ${restoreMs.toFixed(0)} ms; restore to now (replaying them): ${undoMs.toFixed(0)} ms`);
}
