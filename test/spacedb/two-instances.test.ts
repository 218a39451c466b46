// One space's database served by two instances on one Postgres and one blob
// store: writes on either are serialized (one writer at a time), each reads
// what the other wrote, and a restore on one is what the other serves.
import { beforeAll, expect, it } from 'vitest';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';

const servers = useApiServers();
let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  [a, b] = await Promise.all([servers.start(), servers.start()]);
});

it('serves one space database consistently from two instances, writes and restores included', async () => {
  const { token } = await devLogin(a.origin, 'dbtwo');
  const created = await request(a.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'dbtwo', name: 'Data' } });
  const id = created.json.id as string;
  const query = (origin: string, sql: string, write = false) => request(origin, 'POST', `/v1/spaces/${id}/db/query`, { token, body: { sql, write } });

  expect((await query(a.origin, "CREATE TABLE c (n INTEGER); INSERT INTO c VALUES (0); CREATE TABLE r (v);", true)).status).toBe(200);
  // Concurrent increments through both instances: none is lost.
  const writes = await Promise.all(Array.from({ length: 16 }, (_, i) => query(i % 2 ? a.origin : b.origin, 'UPDATE c SET n = n + 1; INSERT INTO r VALUES (random());', true)));
  expect(writes.map((w) => w.status)).toEqual(Array(16).fill(200));
  for (const origin of [a.origin, b.origin]) expect((await query(origin, 'SELECT n FROM c')).json.rows).toEqual([[16]]);
  // Random values written on one are the same bytes on the other.
  const onA = (await query(a.origin, 'SELECT rowid, v FROM r ORDER BY rowid')).json.rows;
  expect((await query(b.origin, 'SELECT rowid, v FROM r ORDER BY rowid')).json.rows).toEqual(onA);
  expect(onA).toHaveLength(16);

  // Reset on B, undo on A, read on B.
  const reset = await request(b.origin, 'POST', `/v1/spaces/${id}/db/reset`, { token });
  expect(reset.status).toBe(200);
  expect((await request(a.origin, 'GET', `/v1/spaces/${id}/db/exists`, { token })).json).toEqual({ hasTables: false });
  const undo = await request(a.origin, 'POST', `/v1/spaces/${id}/db/restore`, { token, body: { at: reset.json.before } });
  expect(undo.status, undo.text).toBe(200);
  expect((await query(b.origin, 'SELECT rowid, v FROM r ORDER BY rowid')).json.rows).toEqual(onA);
  // The write log holds every write, whichever instance took it.
  const log = await request(b.origin, 'GET', `/v1/spaces/${id}/db/writes?limit=100`, { token });
  expect(log.json.writes).toHaveLength(1 + 16 + 2);
});
