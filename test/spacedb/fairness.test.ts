// No one's space-database work can stall everyone else's: a write takes its
// turn for the query processes before its transaction (so runaways waiting
// for one hold no database connection), one person runs at most all but one
// of three processes, anonymous callers at most half of them with a shorter
// deadline, and each person, address and space has a bounded number of jobs
// in flight (429).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { config } from '@/lib/config.ts';
import { closePool, MAX_JOBS } from '@/lib/spacedb/database.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { dbClient, sql } from './fixtures.ts';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const saved = { workers: config.spacedbWorkers, timeout: config.spacedbTimeoutMs };

beforeEach(async () => {
  await closePool();
  config.spacedbWorkers = 3;
  config.spacedbTimeoutMs = 8000;
});

afterEach(async () => {
  // Stops what is still running or waiting, so the next test starts clean.
  await closePool();
  config.spacedbWorkers = saved.workers;
  config.spacedbTimeoutMs = saved.timeout;
});

const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
};

describe('space databases under runaway queries', () => {
  it(`answers another person at once while one person has ${config.databasePoolSize + 2} runaway writes in flight on their own spaces`, async () => {
    const hog = await signIn('fair-hog');
    const spaces = await Promise.all(Array.from({ length: config.databasePoolSize + 2 }, () => makeSpace(hog.token, hog.user.handle)));
    const other = await signIn('fair-other');
    const mine = dbClient((await makeSpace(other.token, other.user.handle)).id);
    await sql(mine, other.token, 'CREATE TABLE t (a); INSERT INTO t VALUES (42);');

    const runaways = spaces.map((space) => dbClient(space.id).query({ token: hog.token }, { sql: `CREATE TABLE x AS ${RUNAWAY}`, write: true }));
    await new Promise((resolve) => setTimeout(resolve, 500));

    const me = await timed(call(meRoute, 'GET', '/v1/me', { token: other.token }));
    expect(me.value.status).toBe(200);
    expect(me.ms).toBeLessThan(1000);
    const read = await timed(sql(mine, other.token, 'SELECT a FROM t', [], false));
    expect(read.value.rows).toEqual([[42]]);
    expect(read.ms).toBeLessThan(1000);
    void Promise.allSettled(runaways);
  }, 30_000);

  it('keeps a process for signed-in people while two anonymous runaways run, and stops anonymous queries sooner', async () => {
    const owner = await signIn('fair-public');
    const publicSpaces = await Promise.all([makeSpace(owner.token, owner.user.handle, { visibility: 'public' }), makeSpace(owner.token, owner.user.handle, { visibility: 'public' })]);
    const reader = await signIn('fair-reader');
    const mine = dbClient((await makeSpace(reader.token, reader.user.handle)).id);
    await sql(mine, reader.token, 'CREATE TABLE t (a); INSERT INTO t VALUES (7);');

    const anonymous = publicSpaces.map((space, i) => timed(dbClient(space.id).query({ headers: { 'x-atrium-peer': `198.51.100.${i + 1}` } }, { sql: RUNAWAY })));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = await timed(sql(mine, reader.token, 'SELECT a FROM t', [], false));
    expect(read.value.rows).toEqual([[7]]);
    expect(read.ms).toBeLessThan(1000);

    // Anonymous callers share one of the three processes: one runaway, then the other, each stopped at 5 s.
    const finished = await Promise.all(anonymous);
    for (const { value } of finished) {
      expect(value.status).toBe(400);
      expect(value.json.error.message).toMatch(/at most 5 s when not signed in/);
    }
    expect(Math.min(...finished.map((f) => f.ms))).toBeLessThan(7000);
  }, 30_000);

  it('refuses with 429 past the jobs an anonymous address may have in flight, and lets signed-in work through', async () => {
    const owner = await signIn('fair-flood');
    const space = await makeSpace(owner.token, owner.user.handle, { visibility: 'public' });
    const visitor = { headers: { 'x-atrium-peer': '203.0.113.200' } };
    const answers = await Promise.all(Array.from({ length: MAX_JOBS.anonymousAddress + 3 }, () => dbClient(space.id).query(visitor, { sql: RUNAWAY })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(answers.find((a) => a.status === 429)!.json.error.message).toMatch(/from your address/);
    expect((await sql(dbClient(space.id), owner.token, 'SELECT 1', [], false)).rows).toEqual([[1]]);
  }, 30_000);
});
