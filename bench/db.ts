// Benchmark "db": POST /v1/spaces/{id}/db/query on the production server
// against bench/baseline-db.ts (token looked up in PostgreSQL, the same SQL
// prepared once on node:sqlite, the same JSON), in the same run, on a space
// whose table has 10,000 rows: point reads, range reads of 100 rows and
// one-row inserts at 1, 10 and 32 connections, and a guest's named write.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { isDeepStrictEqual } from 'node:util';
import { compare, comparisonTable, type Load, type Target } from './compare.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, startServerProcess, workDir } from './server.ts';

const ROWS = 10_000;
const CONNECTIONS = [1, 10, 32];
const INSERT = 'INSERT INTO items (body, n) VALUES (?, ?)';
const GUEST_WRITES = { add: INSERT };

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const seconds = smoke ? { warmup: 0, measure: 1, rounds: 1 } : quick ? { warmup: 1, measure: 2 } : { warmup: 3, measure: 10 };
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();
  const database = await benchDatabase('db', onStop);
  // Guests' writes come from many addresses (X-Forwarded-For), as visitors' do: one address would meet its rate limit.
  const { base, pid } = await startAtriumProcess('atrium-db', database.url, onStop, { TRUST_PROXY: 'true' });
  const token = await devToken(base, 'bench');
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(base + route, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.headers.get('content-type')?.includes('json') ? response.json() : response.text();
  };
  const space = await api('POST', '/v1/spaces', { workspace: 'bench', name: 'Data' });
  const query = `/v1/spaces/${space.id}/db/query`;
  await api('POST', query, { sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT, n INTEGER)', write: true });
  await api('POST', query, {
    sql: `INSERT INTO items (body, n) SELECT hex(randomblob(50)), x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x FROM c)`,
    write: true,
  });
  await api('PATCH', `/v1/spaces/${space.id}`, { guestWrites: true });
  await api('PUT', `/v1/spaces/${space.id}/db/guest-writes`, { statements: Object.entries(GUEST_WRITES).map(([name, sql]) => ({ name, sql })) });

  // The baseline's database: the same rows, by the export.
  const file = path.join(workDir, 'db-baseline.sqlite');
  for (const suffix of ['', '-wal', '-shm']) await rm(file + suffix, { force: true });
  const copy = new DatabaseSync(file);
  copy.exec(`BEGIN; ${await api('GET', `/v1/spaces/${space.id}/db/export`)}; COMMIT;`);
  copy.close();
  const baselineServer = await startServerProcess('baseline-db', 'bench/baseline-db.ts', onStop, { DATABASE_URL: database.url, SQLITE_FILE: file, GUEST_WRITES: JSON.stringify(GUEST_WRITES) });
  const atrium: Target = { name: 'Atrium', base, pid };
  const baseline: Target = { name: 'baseline', base: baselineServer.base, pid: baselineServer.pid };

  // Each request asks for another row, as visitors do.
  let counter = 0;
  const member = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const vary = (body: (i: number) => object, headers: (i: number) => Record<string, string> = () => member): Load => ({
    path: query,
    method: 'POST',
    status: 200,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, headers: headers(++counter), body: JSON.stringify(body(counter)) }) }],
  });
  const loads = [
    { what: 'point read by primary key', connections: CONNECTIONS, load: vary((i) => ({ sql: 'SELECT * FROM items WHERE id = ?', params: [(i % ROWS) + 1] })) },
    { what: 'range read of 100 rows', connections: CONNECTIONS, load: vary((i) => ({ sql: 'SELECT * FROM items WHERE id >= ? ORDER BY id LIMIT 100', params: [(i % (ROWS - 100)) + 1] })) },
    { what: 'one-row insert (member)', connections: CONNECTIONS, load: vary((i) => ({ sql: INSERT, params: ['x', i], write: true })) },
    // A guest's writes are capped at a few running at once per query process (docs/decisions.md): measured one at a time.
    {
      what: 'guest write (named insert)',
      connections: [1],
      load: vary((i) => ({ sql: 'add', params: ['guest', i], write: true, guest: { name: 'Visiting reader' } }), (i) => ({ 'content-type': 'application/json', 'x-forwarded-for': `198.18.${(i >> 8) & 255}.${i & 255}` })),
    },
  ];

  // A baseline that answers something else would measure something else.
  for (const body of [{ sql: 'SELECT * FROM items WHERE id = ?', params: [42] }, { sql: 'SELECT * FROM items WHERE id >= ? ORDER BY id LIMIT 100', params: [7] }]) {
    const [mine, theirs] = await Promise.all([atrium, baseline].map(async (t) => (await fetch(t.base + query, { method: 'POST', headers: member, body: JSON.stringify(body) })).json()));
    if (!isDeepStrictEqual(mine, theirs)) throw new Error(`The baseline answers ${body.sql} differently:\n  Atrium:   ${JSON.stringify(mine).slice(0, 300)}\n  baseline: ${JSON.stringify(theirs).slice(0, 300)}`);
  }

  const rows = [];
  for (const { what, connections, load } of loads) {
    for (const c of smoke ? connections.slice(0, 1) : connections) rows.push({ what, ...(await compare(atrium, baseline, { atrium: load, baseline: load }, c, seconds, what)) });
  }
  console.log(`\n${comparisonTable(rows)}\n`);
  const report = { benchmark: 'db', date: new Date().toISOString(), quick, smoke, seconds, rows: ROWS, machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version }, database: database.kind, results: rows };
  const out = path.join(workDir, 'results-db.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Atrium / baseline = Atrium req/s over the baseline's (targets: point reads at least 0.5x, one-row writes 0.25x). Written to ${path.relative(root, out)}.`);
}
