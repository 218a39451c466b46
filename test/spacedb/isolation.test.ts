// One caller's space-database work never stalls another's: owners take turns
// for the query processes (round-robin, not first come first served), an
// owner runs one job per space at a time so their runaway holds one process
// and their other spaces get a process before their second job in that space,
// exports and overviews run as their caller, and restores are bounded per
// person.
// Assertions are orderings ("answered while the runaways still run"), never
// durations.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { registry } from '@/lib/core/metrics.ts';
import { closePool } from '@/lib/spacedb/database.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { dbClient, sql } from './fixtures.ts';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const saved = { workers: config.spacedbWorkers, timeout: config.spacedbTimeoutMs };

beforeEach(async () => {
  await closePool();
  // Long enough that nothing a test waits for can be mistaken for a runaway's end.
  config.spacedbTimeoutMs = 20_000;
});

afterEach(async () => {
  await closePool();
  config.spacedbWorkers = saved.workers;
  config.spacedbTimeoutMs = saved.timeout;
});

/** The pool's processes running a job, and jobs waiting for one (its metrics). */
async function workers(): Promise<{ busy: number; queued: number }> {
  const { values } = await registry.getSingleMetric('atrium_spacedb_workers')!.get();
  const [queued] = (await registry.getSingleMetric('atrium_spacedb_queued_jobs')!.get()).values;
  return { busy: values.find((v) => v.labels.state === 'busy')?.value ?? 0, queued: queued?.value ?? 0 };
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Starts `work` and counts it as finished when it settles. */
function tracked<T>(works: Promise<T>[]) {
  let finished = 0;
  for (const work of works) void work.finally(() => (finished += 1)).catch(() => {});
  return { finished: () => finished };
}

async function personWithTable(handle: string, rows = "INSERT INTO t VALUES (1), (2), (3);") {
  const person = await signIn(handle);
  const space = await makeSpace(person.token, person.user.handle);
  const client = dbClient(space.id);
  await sql(client, person.token, `CREATE TABLE t (a); ${rows}`);
  return { person, space, client };
}

describe('space databases: isolation between callers', () => {
  it("answers a third person while two people each have a runaway running and two more queued in their space", async () => {
    config.spacedbWorkers = 3;
    const hogs = await Promise.all(['iso-hog-a', 'iso-hog-b'].map((handle) => personWithTable(handle)));
    const third = await personWithTable('iso-third');

    const runaways = tracked(hogs.flatMap(({ person, client }) => Array.from({ length: 3 }, () => client.query({ token: person.token }, { sql: RUNAWAY }))));
    await until(async () => {
      const { busy, queued } = await workers();
      return busy + queued === 6;
    });

    const read = await sql(third.client, third.person.token, 'SELECT count(*) FROM t', [], false);
    expect(read.rows).toEqual([[3]]);
    expect(runaways.finished()).toBe(0);
  }, 60_000);

  it("answers a person's other space while their runaway (and a second one queued behind it) runs in one space", async () => {
    config.spacedbWorkers = 2;
    const { person, client } = await personWithTable('iso-self');
    const other = dbClient((await makeSpace(person.token, person.user.handle)).id);
    await sql(other, person.token, 'CREATE TABLE t (a); INSERT INTO t VALUES (1), (2);');

    const runaways = tracked(Array.from({ length: 2 }, () => client.query({ token: person.token }, { sql: RUNAWAY })));
    await until(async () => {
      const { busy, queued } = await workers();
      return busy + queued === 2;
    });

    const read = await sql(other, person.token, 'SELECT count(*) FROM t', [], false);
    expect(read.rows).toEqual([[2]]);
    expect(runaways.finished()).toBe(0);
  }, 60_000);

  it("runs exports as their caller: another person's overview is answered while ten exports of a large database wait", async () => {
    config.spacedbWorkers = 2;
    const { person, client } = await personWithTable(
      'iso-exporter',
      'INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT randomblob(250) FROM c;',
    );
    const reader = await personWithTable('iso-overview');

    const exports = tracked(Array.from({ length: 10 }, () => client.export({ token: person.token })));
    await until(async () => {
      const { busy, queued } = await workers();
      return busy + queued === 10;
    });

    const overview = await reader.client.overview({ token: reader.person.token });
    expect(overview.status).toBe(200);
    // Behind them all, it would come after the tenth export's job, not the fifth.
    expect(exports.finished()).toBeLessThan(5);
  }, 120_000);

  it("keeps no query process for a write waiting on PostgreSQL: another node holds the space's lock, and a read of another space is answered meanwhile", async () => {
    config.spacedbWorkers = 1;
    const writer = await personWithTable('iso-waiting-writer');
    const reader = await personWithTable('iso-waiting-reader');

    // Another node's write holds the space's lock until `unlock`.
    let unlock!: () => void;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const otherNode = db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`spacedb:${writer.space.id}`}, 0))`;
        locked();
        await unlocked;
      },
      { timeout: 60_000 },
    );
    await holding;

    let written = false;
    const write = sql(writer.client, writer.person.token, 'INSERT INTO t VALUES (4)').then(() => (written = true));
    await until(async () => (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)[0].n > 0);

    const read = await sql(reader.client, reader.person.token, 'SELECT count(*) FROM t', [], false);
    expect(read.rows).toEqual([[3]]);
    expect(written).toBe(false);
    unlock();
    await otherNode;
    await write;
    expect((await sql(writer.client, writer.person.token, 'SELECT count(*) FROM t', [], false)).rows).toEqual([[4]]);
  }, 60_000);

  it('answers 503, not 500, to a query under way when the pool closes (the server stopping)', async () => {
    const { person, client } = await personWithTable('iso-closing');
    const runaway = client.query({ token: person.token }, { sql: RUNAWAY });
    await until(async () => (await workers()).busy === 1);
    await closePool();
    const answer = await runaway;
    expect(answer.status).toBe(503);
    expect(answer.json.error.message).toMatch(/stopping/);
  }, 60_000);

  it('admits a bounded number of restores per person, refusing the rest with 429 and Retry-After, and answers others meanwhile', async () => {
    const owner = await signIn('iso-restorer');
    const clients = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const client = dbClient((await makeSpace(owner.token, owner.user.handle)).id);
        await sql(client, owner.token, 'CREATE TABLE t (a); INSERT INTO t VALUES (1);');
        return client;
      }),
    );
    const other = await signIn('iso-restore-other');

    const restores = clients.map((client) => client.restore({ token: owner.token }, 'bm-0'));
    const me = await call(meRoute, 'GET', '/v1/me', { token: other.token });
    expect(me.status).toBe(200);

    const answers = await Promise.all(restores);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused[0].json.error.message).toMatch(/restor/i);
    // Once they are done, the next one is admitted.
    expect((await clients[0].restore({ token: owner.token }, 'bm-1')).status).toBe(200);
  }, 60_000);
});
