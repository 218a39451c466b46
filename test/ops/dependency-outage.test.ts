// Shared dependencies going away under load: a Redis and an S3 stand-in that
// this test starts itself (never the machine's own) are stopped, hung and
// brought back while requests flow through the real front server. The node
// stays ready, requests that need neither keep answering, rate limits count in
// PostgreSQL meanwhile and in Redis again afterwards, and a blob read answers
// or write answers 503 with Retry-After on its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn } from '../../scripts/s3-stand-in.ts';
import { config } from '@/lib/config.ts';
import { query } from '@/lib/db/client.ts';
import { closeRateLimitStores, RATE_LIMIT_TABLE } from '@/lib/core/rate-limit.ts';
import { signIn } from '../helpers.ts';
import { rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push, putBlob } from '../spaces/fixtures.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const redisPort = await freePort();
const redisDir = await mkdtemp(path.join(tmpdir(), 'atrium-redis-'));
let redisProcess: ChildProcess | null = null;

/** Starts redis-server on this test's port and waits until it answers. */
async function startRedis(): Promise<void> {
  redisProcess = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
  const probe = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {});
  await probe.ping();
  probe.disconnect();
}

async function stopRedis(): Promise<void> {
  const stopping = redisProcess!;
  redisProcess = null;
  if (stopping.exitCode !== null) return;
  const exited = new Promise((resolve) => stopping.once('exit', resolve));
  stopping.kill('SIGKILL');
  await exited;
}

await startRedis();
const s3 = await startS3StandIn();
// Set before anything in this file opens the stores.
const saved = { redisUrl: config.redisUrl, s3: config.s3, metricsToken: config.metricsToken };
config.redisUrl = `redis://127.0.0.1:${redisPort}`;
config.s3 = s3.config;
config.metricsToken = 'dependency-outage-metrics-token';

const server = useFrontServer();

let owner: { token: string };
let spaceId = '';
beforeAll(async () => {
  owner = await signIn('outage-owner');
  spaceId = (await makeSpace(owner.token, 'outage-owner')).id;
  await push(owner.token, spaceId, { 'index.html': '<h1>home</h1>', 'api.txt': 'read through the API', 'site.txt': 'read through the site' });
});

afterAll(async () => {
  if (redisProcess) {
    redisProcess.kill('SIGCONT');
    await stopRedis();
  }
  await closeRateLimitStores();
  await s3.close().catch(() => {});
  Object.assign(config, saved);
});

const get = (route: string, headers: Record<string, string> = {}) => rawRequest(server.origin, 'GET', route, { headers });
const asOwner = (route: string) => get(route, { authorization: `Bearer ${owner.token}` });

/** One round of what every node serves: readiness, the caller, a rate-limited search. Returns the requests that failed. */
async function round(): Promise<string[]> {
  const answers = await Promise.all([get('/readyz'), asOwner('/v1/me'), asOwner('/v1/search?q=home'), asOwner('/v1/me'), asOwner('/v1/search?q=api')]);
  const names = ['/readyz', '/v1/me', '/v1/search', '/v1/me', '/v1/search'];
  return answers.flatMap((answer, i) => (answer.status === 200 ? [] : [`${names[i]} ${answer.status}`]));
}

/** The search limiter's count for the owner in Postgres, or 0. */
async function postgresSearchCount(): Promise<number> {
  const rows = await query<{ points: number }>(`SELECT points FROM "${RATE_LIMIT_TABLE}" WHERE key LIKE 'search:%'`);
  return rows.reduce((sum, row) => sum + row.points, 0);
}

async function redisSearchCount(): Promise<number> {
  const client = new Redis({ port: redisPort, host: '127.0.0.1' });
  try {
    const keys = await client.keys('atrium:*:rl:search:*');
    const values = await Promise.all(keys.map((key) => client.get(key)));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  } finally {
    client.disconnect();
  }
}

/** The value of atrium_dependency_up for `dependency` in /metrics. */
async function dependencyUp(dependency: string): Promise<string | undefined> {
  const text = (await get('/metrics', { authorization: `Bearer ${config.metricsToken}` })).text;
  return new RegExp(`^atrium_dependency_up\\{dependency="${dependency}"[^}]*\\} (\\d)$`, 'm').exec(text)?.[1];
}

describe('a shared dependency down', () => {
  it('Redis stopped, hung and back: the node stays ready, everything answers, and counts go to Postgres and back to Redis', { timeout: 120_000 }, async () => {
    const failed: string[] = [];
    failed.push(...(await round()));
    expect(await redisSearchCount()).toBeGreaterThan(0);
    const inPostgresBefore = await postgresSearchCount();

    await stopRedis();
    for (let i = 0; i < 6; i++) failed.push(...(await round()));
    expect(failed).toEqual([]);
    const health = (await get('/healthz')).json;
    expect(health.dependencies).toEqual({ redis: 'down', storage: 'up' });
    expect(await dependencyUp('redis')).toBe('0');
    expect((await get('/readyz')).json).toMatchObject({ ready: true, checks: { database: 'ok', redis: expect.stringMatching(/failed|timed out/) } });
    // The limit still counts, in Postgres: 12 searches in those rounds.
    expect((await postgresSearchCount()) - inPostgresBefore).toBe(12);

    // Back: counting returns to Redis once it answers again.
    await startRedis();
    const inRedisBack = async () => {
      for (;;) {
        failed.push(...(await round()));
        if ((await redisSearchCount()) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await inRedisBack();
    expect((await get('/healthz')).json.dependencies.redis).toBe('up');

    // Hung rather than gone (it accepts connections and never answers): each count waits a bounded time, then Postgres counts.
    const inPostgresBeforeHang = await postgresSearchCount();
    redisProcess!.kill('SIGSTOP');
    for (let i = 0; i < 3; i++) failed.push(...(await round()));
    expect((await postgresSearchCount()) - inPostgresBeforeHang).toBe(6);
    redisProcess!.kill('SIGCONT');

    expect(failed).toEqual([]);
  });

  it('the blob store stopped: the node stays ready and serves what needs no stored bytes; a blob read or write alone answers 503 with Retry-After', { timeout: 120_000 }, async () => {
    await s3.close();
    const failed: string[] = [];
    for (let i = 0; i < 3; i++) failed.push(...(await round()));
    expect(failed).toEqual([]);

    const write = await putBlob(owner.token, spaceId, 'bytes sent while the store is down');
    expect([write.status, write.headers.get('retry-after'), write.json.error.code]).toEqual([503, '5', 'unavailable']);
    const viaApi = await asOwner(`/v1/spaces/${spaceId}/files/api.txt`);
    expect([viaApi.status, viaApi.headers['retry-after'], viaApi.json?.error?.code]).toEqual([503, '5', 'unavailable']);
    expect(viaApi.json.error.message).toBe('The file store cannot be reached right now; try again in a few seconds.');
    // The site on its own host, where the app's origin sends a visitor's browser.
    const siteHost = new URL((await get(`/s/${spaceId}/site.txt`)).headers.location as string).host;
    const viaSite = await get('/site.txt', { host: siteHost });
    expect([viaSite.status, viaSite.headers['retry-after']]).toEqual([503, '5']);
    expect((await get('/healthz')).json.dependencies.storage).toBe('down');
    expect(await dependencyUp('storage')).toBe('0');

    // A space-database write whose snapshot is due is recorded without it (a later write takes it).
    const sql = async (statement: string) => {
      const response = await fetch(`${server.origin}/v1/spaces/${spaceId}/db/query`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sql: statement, write: true }) });
      return `${response.status} ${await response.text()}`;
    };
    expect(await sql('CREATE TABLE big (b BLOB)')).toMatch(/^200 /);
    // Rewriting 400 KB keeps the file near 800 KB while the changes since the last snapshot pass 1 MiB.
    expect(await sql('INSERT INTO big VALUES (randomblob(400000))')).toMatch(/^200 /);
    for (let i = 0; i < 3; i++) expect(await sql('UPDATE big SET b = randomblob(400000)')).toMatch(/^200 /);
  });
});
