// SIGTERM drains a node: it stops being ready and accepting connections, the
// requests in flight finish (within DRAIN_TIMEOUT_SECONDS), then it exits.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readiness, startDraining } from '@/lib/ops/health.ts';
import { signIn } from '../helpers.ts';
import { useApiServers } from '../process-server.ts';

const servers = useApiServers();

/** Starts a POST whose body is sent in two halves; `finish()` sends the second. */
function slowPost(origin: string, path: string, token: string, json: object) {
  const url = new URL(origin);
  const body = Buffer.from(JSON.stringify(json));
  const half = Math.floor(body.length / 2);
  let finish!: () => void;
  const answer = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
    });
    req.on('error', reject);
    req.write(body.subarray(0, half));
    finish = () => req.end(body.subarray(half));
  });
  return { answer, finish: () => finish() };
}

const refused = (origin: string) =>
  new Promise<boolean>((resolve) => {
    const url = new URL(origin);
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('drain on SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, then exits 0', async () => {
    const server = await servers.start({ DRAIN_TIMEOUT_SECONDS: '20' });
    const { token } = await signIn('drained');
    const slow = slowPost(server.origin, '/v1/workspaces', token, { name: 'Made while draining', slug: 'made-while-draining' });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(server.pid, 'SIGTERM');
    // Soon after the signal (however busy the machine), and while the request is still in flight.
    await expect.poll(() => refused(server.origin), { timeout: 5_000 }).toBe(true);
    slow.finish();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).slug).toBe('made-while-draining');
    expect(await server.exited).toBe(0);
  });

  it('stops waiting after DRAIN_TIMEOUT_SECONDS for a request that never ends', async () => {
    const server = await servers.start({ DRAIN_TIMEOUT_SECONDS: '1' });
    const { token } = await signIn('stuck');
    const stuck = slowPost(server.origin, '/v1/workspaces', token, { name: 'Never sent', slug: 'never-sent' });
    stuck.answer.catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    process.kill(server.pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('goes on answering, not ready and closing each connection, for DRAIN_NOTICE_SECONDS before it stops listening', async () => {
    const server = await servers.start({ DRAIN_NOTICE_SECONDS: '2' });
    process.kill(server.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('connection')).toBe('close');
    expect(await ready.json()).toMatchObject({ ready: false, draining: true });
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await refused(server.origin)).toBe(true);
    expect(await server.exited).toBe(0);
  });

  it('answers /readyz with 503 once draining', async () => {
    expect((await readiness()).ready).toBe(true);
    startDraining();
    expect(await readiness()).toMatchObject({ ready: false, draining: true, checks: { database: 'ok' } });
  });
});
