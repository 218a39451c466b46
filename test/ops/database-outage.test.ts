// PostgreSQL stopped and started again under a running node (a PostgreSQL of
// this test's own, on a port it keeps, never the machine's shared one):
// requests that need the database are answered 503 with Retry-After in the
// spec's envelope, the log says so once per outage rather than a stack per
// request, and the node serves again once the database is back.
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, ensureDatabase, freePort, startEmbeddedPostgres, type RunningPostgres } from '@/lib/db/embedded-postgres.ts';
import { migrate } from '@/lib/db/migrate.ts';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';

const servers = useApiServers();
let dataDir: string;
let port: number;
let postgres: RunningPostgres | null = null;
let url: string;

const startPostgres = async () => {
  postgres = await startEmbeddedPostgres({ dataDir, port });
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-outage-'));
  port = await freePort();
  await startPostgres();
  await ensureDatabase(postgres!.serverUrl, 'atrium');
  url = databaseUrl(postgres!.serverUrl, 'atrium');
  await migrate(url);
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const outageLines = (server: ApiProcess) => server.output().split('\n').filter((line) => line.includes('"msg":"database unavailable'));

describe('a PostgreSQL restart', { timeout: 120_000 }, () => {
  it('answers 503 with Retry-After naming the database, logs one line per outage, and serves again after', async () => {
    const server = await servers.start({ DATABASE_URL: url });
    const { token } = await devLogin(server.origin, 'outage');
    expect((await request(server.origin, 'GET', '/v1/me', { token })).status).toBe(200);

    await postgres!.stop();
    // A burst, as clients keep coming during a restart: reads and a write, signed in or not.
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 4 === 3
          ? request(server.origin, 'POST', '/v1/workspaces', { token, body: { name: `During ${i}`, slug: `during-${i}` } })
          : request(server.origin, 'GET', '/v1/me', { token }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.json.error.code).toBe('unavailable');
      expect(answer.json.error.message).toMatch(/database is unavailable/i);
    }
    expect(outageLines(server)).toHaveLength(1);
    expect(server.output()).not.toMatch(/unhandled error|dispatch failed/);
    // Readiness says which dependency is down, without the address.
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.database).not.toBe('ok');

    await startPostgres();
    await expect.poll(async () => (await request(server.origin, 'GET', '/v1/me', { token })).status, { timeout: 30_000, interval: 200 }).toBe(200);
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('"msg":"database is back"');

    // A second outage is logged once more.
    await postgres!.stop();
    expect((await request(server.origin, 'GET', '/v1/me', { token })).status).toBe(503);
    expect(outageLines(server)).toHaveLength(2);
    await startPostgres();
    expect(server.output()).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe('a room socket while PostgreSQL is down', { timeout: 120_000 }, () => {
  it('is refused with 503 and Retry-After in the envelope, and counted as unavailable', async () => {
    // This process's modules on this file's PostgreSQL, imported only now that it runs.
    const { config } = await import('@/lib/config.ts');
    config.databaseUrl = url;
    const { createRealtime } = await import('@/realtime/server.ts');
    const { createFrontServer } = await import('@/server/index.ts');
    const { registry } = await import('@/lib/core/metrics.ts');
    const realtime = createRealtime();
    const front = createFrontServer({ upgrades: realtime.handleUpgrade });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    try {
      const { token } = await devLogin(origin, 'socket-outage');
      const workspace = (await request(origin, 'POST', '/v1/workspaces', { token, body: { name: 'Sockets', slug: 'sockets-outage' } })).json;
      const room = (await request(origin, 'POST', '/v1/rooms', { token, body: { workspace: workspace.slug, name: 'Outage' } })).json;
      const { url: ticketUrl } = (await request(origin, 'POST', `/v1/rooms/${room.id}/ticket`, { token })).json;
      const refusals = async () => Number(/code="unavailable"[^}]*\} (\d+)/.exec(await registry.getSingleMetricAsString('atrium_realtime_socket_refusals_total'))?.[1] ?? 0);
      const before = await refusals();

      await postgres!.stop();
      const answer = await new Promise<{ status: number; retryAfter: string | undefined; text: string }>((resolve, reject) => {
        const target = new URL(ticketUrl);
        const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
        const upgrade = httpRequest(`${origin}${target.pathname}${target.search}`, { headers }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], text }));
        });
        upgrade.on('error', reject).end();
      });
      expect(answer.status, answer.text).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(answer.text).error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/database is unavailable/i) });
      expect(await refusals()).toBe(before + 1);

      // Another service's refused connection is not taken for the database's.
      const { isDatabaseUnavailable, query } = await import('@/lib/db/client.ts');
      expect(isDatabaseUnavailable(await query('SELECT 1').catch((error: unknown) => error))).toBe(true);
      const elsewhere = await fetch(`http://127.0.0.1:${await freePort()}/`).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(elsewhere)).toBe(false);
      expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' }))).toBe(false);
    } finally {
      await startPostgres();
      await realtime.stop();
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});

describe('a connection PostgreSQL closed during a restart', () => {
  it('is an outage when a transaction queries it again, not a server error', async () => {
    const { isDatabaseUnavailable } = await import('@/lib/db/client.ts');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // As a fast shutdown does to every connection: the backend ends, and node-postgres marks the client broken.
    const broken = new Promise((resolve) => client.on('error', resolve));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]);
    await admin.end();
    await broken;
    const error = await client.query('SELECT 1').catch((caught: unknown) => caught);
    expect(String(error)).toMatch(/not queryable/);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await client.end().catch(() => {});
  });
});
