// Query processes keep read connections open between jobs. A node whose
// process holds a connection to a space's file must still answer what another
// node wrote (its catch-up must not write under that connection), run writes
// on a file at the head, and end with the bytes the history replays to.
import fs from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { db as prisma } from '@/lib/db/client.ts';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';
import { cacheFileOf, quickCheck, replayed } from './files.ts';

const servers = useApiServers();
let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  // One query process each: the process that keeps the read connection is the one that runs every later job.
  a = await servers.start({ SPACEDB_WORKERS: '1' });
  b = await servers.start({ SPACEDB_WORKERS: '1' });
});



it('answers another node’s writes on a node whose query process keeps a connection open, and writes on a file at the head', async () => {
  const { token } = await devLogin(a.origin, 'dbkept');
  const created = await request(a.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'dbkept', name: 'Data' } });
  const id = created.json.id as string;
  const query = async (node: ApiProcess, sql: string, write = false) => {
    const answer = await request(node.origin, 'POST', `/v1/spaces/${id}/db/query`, { token, body: { sql, write } });
    expect(answer.status, answer.text).toBe(200);
    return answer.json.rows as unknown[][];
  };
  const tags = (node: ApiProcess) => query(node, 'SELECT tag FROM w ORDER BY id');

  await query(a, 'CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT, pad BLOB)', true);
  const expected: string[] = [];
  for (let round = 0; round < 4; round++) {
    // A's process reads (and keeps its connection, its page cache warm) ...
    await query(a, `INSERT INTO w (tag, pad) VALUES ('a${round}', randomblob(3000))`, true);
    expected.push(`a${round}`);
    expect((await tags(a)).flat()).toEqual(expected);
    // ... B writes, changing pages A's connection has cached ...
    await query(b, `INSERT INTO w (tag, pad) VALUES ('b${round}', randomblob(3000)); UPDATE w SET pad = randomblob(3000) WHERE id = 1`, true);
    expected.push(`b${round}`);
    // ... and A, catching up with that connection still open, answers B's write.
    expect((await tags(a)).flat()).toEqual(expected);
  }
  // A reset on B, seen on A; A writes on what it caught up to.
  expect((await request(b.origin, 'POST', `/v1/spaces/${id}/db/reset`, { token })).status).toBe(200);
  const tables = await request(a.origin, 'GET', `/v1/spaces/${id}/db/exists`, { token });
  expect(tables.json).toEqual({ hasTables: false });
  await query(a, 'CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT, pad BLOB)', true);
  await query(a, "INSERT INTO w (tag) VALUES ('after')", true);
  expect((await tags(b)).flat()).toEqual(['after']);

  const history = await replayed(prisma, id);
  for (const node of [a, b]) {
    const file = cacheFileOf(node, id);
    expect(quickCheck(file)).toBe('ok');
    expect(fs.readFileSync(file).equals(history), `${node.origin}'s file is the history's`).toBe(true);
  }
}, 120_000);

it('gives the next writer a kept write connection as new: the settable PRAGMAs at their defaults and no TEMP table, view or trigger', async () => {
  // One query process (SPACEDB_WORKERS=1): every write below runs on the same kept connection.
  const { token } = await devLogin(a.origin, 'dbkeptwriter');
  const created = await request(a.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'dbkeptwriter', name: 'Data' } });
  const write = async (sql: string) => {
    const answer = await request(a.origin, 'POST', `/v1/spaces/${created.json.id}/db/query`, { token, body: { sql, write: true } });
    expect(answer.status, answer.text).toBe(200);
    return answer.json.rows as unknown[][];
  };
  await write('CREATE TABLE t (a)');
  await write(`PRAGMA recursive_triggers = ON; PRAGMA case_sensitive_like = ON; PRAGMA reverse_unordered_selects = ON;
    CREATE TEMP TABLE seen (a); CREATE TEMP VIEW peek AS SELECT * FROM seen;
    CREATE TEMP TRIGGER spy AFTER INSERT ON main.t BEGIN INSERT INTO seen VALUES (new.a); END;
    INSERT INTO t VALUES (1)`);
  expect(await write('SELECT type, name FROM temp.sqlite_master ORDER BY name')).toEqual([]);
  expect(await write('PRAGMA recursive_triggers')).toEqual([[0]]);
  expect(await write('PRAGMA reverse_unordered_selects')).toEqual([[0]]);
  expect(await write("SELECT 'a' LIKE 'A'")).toEqual([[1]]);
  expect(await write('PRAGMA foreign_keys')).toEqual([[1]]);
  // The spy is gone with its table: an insert no longer reaches a TEMP table (which would fail without it).
  await write('INSERT INTO t VALUES (2)');
  expect(await write('SELECT a FROM t ORDER BY a')).toEqual([[1], [2]]);
});
