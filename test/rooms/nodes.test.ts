// Realtime nodes as separate processes (npm run realtime): an edit the server
// acknowledged survives SIGTERM mid-debounce and a restart; a drain keeps its
// sockets for the notice; two nodes over Redis show each other's edits, chat
// and presence.
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@/lib/db/embedded-postgres.ts';
import { useFrontServer } from '../server.ts';
import { World } from '../http/world.ts';
import { connect, ticketUrl, waitFor, type Client } from './socket-helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const server = useFrontServer();
const children = new Set<ChildProcess>();
const clients: Client[] = [];
let w: World;

type Node = { origin: string; child: ChildProcess; output: () => string };

async function startNode(env: Record<string, string> = {}): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../server/realtime-main.ts')], {
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, LOG_REQUESTS: 'false', HOST: '127.0.0.1', REALTIME_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  await waitFor(`the node to start: ${output}`, () => output.includes('realtime ready'), 20_000);
  return { origin: `http://127.0.0.1:${port}`, child, output: () => output };
}

async function open(node: Node, person = w.people.owner, roomId = w.rooms.room) {
  const client = await connect(await ticketUrl(w, person, roomId, 'rooms', node.origin), roomId);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  w = await new World(server.origin, 'nd').build();
}, 60_000);

afterAll(() => {
  for (const c of clients) c.destroy();
  for (const child of children) child.kill('SIGKILL');
});

describe('realtime nodes', () => {
  it('keeps an acknowledged edit when the node is stopped with SIGTERM before its store debounce, and serves it after a restart', async () => {
    const node = await startNode();
    const a = await open(node);
    a.write('Written just before SIGTERM');
    // Acknowledged: the server applied the update and told the provider so.
    await waitFor('the acknowledgement', () => a.provider.unsyncedChanges === 0 && a.provider.isSynced);
    node.child.kill('SIGTERM');
    await waitFor('the node to exit', () => node.child.exitCode !== null || node.child.signalCode !== null, 15_000);
    expect(node.child.exitCode).toBe(0);
    // Told to reconnect now (to another node), not that the room is gone.
    expect(a.closed?.code).toBe(4205);
    const markdown = await w.call('GET', `/v1/rooms/${w.rooms.room}/markdown`, { as: w.people.owner });
    expect(markdown.text).toContain('Written just before SIGTERM');
    const again = await startNode();
    const b = await open(again, w.people.member);
    expect(b.text()).toContain('Written just before SIGTERM');
  }, 60_000);

  it('on SIGTERM is unready at once, keeps its sockets for DRAIN_NOTICE_SECONDS while refusing new ones with 503, then closes them with 4205', async () => {
    const [node, other] = await Promise.all([startNode({ DRAIN_NOTICE_SECONDS: '4' }), startNode()]);
    const a = await open(node);
    const b = await open(node, w.people.member);
    const fresh = new URL(await ticketUrl(w, w.people.owner, w.rooms.room, 'rooms', node.origin));
    const signalled = Date.now();
    node.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${node.origin}/readyz`)).status, { timeout: 10_000, interval: 50 }).toBe(503);
    // The balancer now takes the node out; the sockets open on it stay meanwhile.
    expect(a.closed).toBeNull();
    expect(b.closed).toBeNull();
    // A new upgrade (one request, by hand: a WebSocket client would retry) is refused with Retry-After.
    const refusal = await new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
      const upgrade = httpRequest(`${node.origin}${fresh.pathname}${fresh.search}`, { headers }, (response) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c)).on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
      });
      upgrade.on('upgrade', () => reject(new Error('upgraded during the drain'))).on('error', reject).end();
    });
    expect(refusal).toMatchObject({ status: 503, retryAfter: '1' });
    expect(JSON.parse(refusal.body).error.code).toBe('unavailable');
    expect(a.closed).toBeNull();
    // The refused ticket is not spent: it opens a socket on another node.
    clients.push(await connect(`${other.origin.replace(/^http/, 'ws')}${fresh.pathname}${fresh.search}`, w.rooms.room));
    await waitFor('both sockets to close', () => a.closed && b.closed, 20_000);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(4000);
    expect([a.closed?.code, b.closed?.code]).toEqual([4205, 4205]);
    await waitFor('the node to exit', () => node.child.exitCode !== null, 20_000);
    expect(node.child.exitCode).toBe(0);
  }, 60_000);

  it('answers /healthz and /readyz, as web nodes do, for the load balancer', async () => {
    const node = await startNode({ REDIS_URL });
    expect(await (await fetch(`${node.origin}/healthz`)).json()).toMatchObject({ alive: true });
    const ready = await fetch(`${node.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { database: 'ok', migrations: 'ok', redis: 'ok' } });
    expect((await fetch(`${node.origin}/anything-else`)).status).toBe(426);
  }, 60_000);

  it('shares edits, chat and presence between two nodes over Redis', async () => {
    const one = await startNode({ REDIS_URL, REALTIME_NAME: 'one' });
    const two = await startNode({ REDIS_URL, REALTIME_NAME: 'two' });
    const room = (await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Two nodes' } })).id;
    const a = await open(one, w.people.owner, room);
    const b = await open(two, w.people.member, room);
    a.write('From node one');
    await waitFor('the edit on node two', () => b.text().includes('From node one'));
    b.write('From node two');
    await waitFor('the edit on node one', () => a.text().includes('From node two'));
    b.say('hello across nodes');
    await waitFor('the chat on node one', () => a.messages.find((m) => m.kind === 'chat.message' && m.message.body === 'hello across nodes'));
    b.provider.setAwarenessField('user', { name: 'Member', color: '#f00' });
    await waitFor('the presence on node one', () =>
      [...a.provider.awareness!.getStates().values()].find((s) => s.user?.name === 'Member' && s.user?.handle === w.people.member.handle),
    );
  }, 60_000);
});
