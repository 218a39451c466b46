// The operator's endpoints (/healthz, /readyz, /metrics) and a client still
// sending a body the server refused: through the front server over real sockets.
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { signIn } from '../helpers.ts';
import { rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
// CI installs it (.ci/run: Debian's prometheus package); elsewhere the test says it was skipped rather than fail for a missing program.
const runWithPromtool = hasPromtool || process.env.CI ? it : it.skip;
if (!hasPromtool && !process.env.CI) console.warn('promtool is not installed: the metrics lint is skipped (apt-get install prometheus)');
const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.origin, 'GET', path, { headers });

afterEach(() => {
  config.metricsToken = null;
});

describe('health', () => {
  it('GET /healthz says the process is alive, which node it is, and its shared dependencies as last seen', async () => {
    await get('/readyz');
    const answer = await get('/healthz');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ alive: true, node: config.nodeId, dependencies: { redis: config.redisUrl ? 'up' : 'not configured', storage: 'up' } });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('GET /readyz checks the database and the migrations, reports Redis when configured and the blob store, naming no address', async () => {
    const answer = await get('/readyz');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      ready: true,
      draining: false,
      node: config.nodeId,
      checks: { database: 'ok', migrations: 'ok', storage: 'ok', redis: config.redisUrl ? 'ok' : 'not configured' },
    });
    expect(answer.text).not.toMatch(/postgres(ql)?:|redis:|127\.0\.0\.1/);
  });

  it('refuses methods other than GET on the operator endpoints', async () => {
    const answer = await rawRequest(server.origin, 'POST', '/readyz', { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });
});

describe('metrics', () => {
  it('are off (404) without METRICS_TOKEN, so nothing is exposed by default', async () => {
    const answer = await get('/metrics');
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });

  it('need the bearer token, then count requests by route template and status, the pool and rate-limit refusals', async () => {
    config.metricsToken = 'metrics-token-for-tests-0123456789';
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', { authorization: 'Bearer metrics-token-for-tests-012345678X' })).status).toBe(401);

    const { token } = await signIn('metered');
    await get('/v1/me', { authorization: `Bearer ${token}` });
    await get('/v1/spaces/nothing-here', { authorization: `Bearer ${token}` });
    const answer = await get('/metrics', { authorization: `Bearer ${config.metricsToken}` });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.text;
    expect(text).toMatch(new RegExp(`atrium_http_requests_total\\{route="/v1/me",method="GET",status="200",node="${config.nodeId}"\\} [1-9]`));
    expect(text).toMatch(/atrium_http_requests_total\{route="\/v1\/spaces\/\{id\}",method="GET",status="404"/);
    expect(text).toMatch(/atrium_http_request_duration_seconds_bucket\{le="0\.005",node="[^"]+",route="\/v1\/me",method="GET"\} \d+/);
    expect(text).toMatch(/atrium_db_pool_connections\{state="in_use",node="[^"]+"\} \d+/);
    expect(text).toMatch(/atrium_db_pool_waiting_queries\{node="[^"]+"\} \d+/);
    expect(text).toContain('# TYPE atrium_rate_limit_refusals_total counter');
    expect(text).toContain('# TYPE atrium_storage_sweeps_total counter');
    expect(text).toContain('# TYPE atrium_spacedb_workers_killed_total counter');
    expect(text).not.toContain(token);
  });

  runWithPromtool('pass Prometheus\' own linter (promtool check metrics): no gauge named _total, one quantity per name', async () => {
    config.metricsToken = 'metrics-token-for-tests-0123456789';
    await get('/v1/me');
    const text = (await get('/metrics', { authorization: `Bearer ${config.metricsToken}` })).text;
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.error).toBeUndefined();
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('a body refused on its declared length', () => {
  it('is answered with 413 while the client is still sending it, and the client finishes without a reset', async () => {
    const { token } = await signIn('big-sender');
    const url = new URL(server.origin);
    const size = 12 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // The client writes its whole body whatever comes back, as Node's http client does.
    const outcome = await new Promise<{ status: number; body: string; writeError: string | null }>((resolve) => {
      let status = 0;
      let body = '';
      let writeError: string | null = null;
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: '/v1/workspaces', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(size) }, agent: false }, (res) => {
        status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        writeError = error.code ?? error.message;
      });
      req.on('close', () => resolve({ status, body, writeError }));
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.byteLength;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body).error.code).toBe('too_large');
    expect(outcome.writeError).toBeNull();
  });
});
