// What the realtime server enforces by itself, tried with a hostile client
// (raw-client.ts) that never disconnects on its own: losing access ends the
// WebSocket (4403) on every node; a socket authenticates one document once,
// from the current state, never from its ticket; the per-room cap holds under
// a burst; malformed and oversized frames end only their own socket.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtime, type Realtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import type { Person } from '../http/world.ts';
import { World } from '../http/world.ts';
import * as Y from 'yjs';
import { openRaw, RawRefusal, type RawClient } from './raw-client.ts';
import { ticketUrl, waitFor } from './socket-helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CAP = 20;

type Node = { realtime: Realtime; server: ReturnType<typeof createFrontServer>; origin: string };
const nodes: Node[] = [];
const clients: RawClient[] = [];
let w: World;

async function startNode(name: string): Promise<Node> {
  // A long re-check period: each test sees the immediate enforcement, not the periodic one.
  const realtime = createRealtime({ name, redisUrl: REDIS_URL, recheckMs: 60_000, maxRoomConnections: CAP });
  const server = createFrontServer({ upgrades: realtime.handleUpgrade });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  const node = { realtime, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  nodes.push(node);
  return node;
}

async function raw(person: Person, roomId: string, node = nodes[0], options: { authenticate?: boolean } = {}) {
  const client = await openRaw(await ticketUrl(w, person, roomId, 'rooms', node.origin), roomId, options);
  clients.push(client);
  return client;
}

/** A new room of the owner's with `person` added to it (only) as `role`. */
async function roomWith(person: Person, role: 'viewer' | 'commenter' | 'editor') {
  const { id } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: `Enforced ${Math.random()}` } });
  await w.must(200, 'POST', `/v1/rooms/${id}/people`, { as: w.people.owner, body: { to: person.handle, role } });
  return id as string;
}

const revoked = (client: RawClient) => client.messages.some((m) => m.kind === 'access.revoked');

/** After losing access: told, the socket closed with 4403, and a re-Auth on it gets nothing. */
async function expectCutOff(client: RawClient, watcher: RawClient) {
  await waitFor('access.revoked', () => revoked(client));
  const scopes = client.scopes.length;
  client.authenticate();
  client.write('written after losing access');
  await waitFor('the socket to close', () => client.closeCode !== null);
  expect(client.closeCode).toBe(4403);
  expect(client.scopes.length).toBe(scopes);
  await new Promise((r) => setTimeout(r, 300));
  expect(watcher.text()).not.toContain('after losing access');
}

beforeAll(async () => {
  await startNode('enforce-a');
  await startNode('enforce-b');
  w = await new World(nodes[0].origin, 'enf').build();
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  for (const node of nodes) {
    await node.realtime.stop();
    node.server.closeAllConnections();
    await new Promise((resolve) => node.server.close(resolve));
  }
});

describe('room sockets against a hostile client', () => {
  it('ends the WebSocket of a removed person on every node, and a re-Auth on it is not answered', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'editor');
    const watcher = await raw(w.people.owner, room);
    const onA = await raw(guest, room, nodes[0]);
    const onB = await raw(guest, room, nodes[1]);
    expect(onA.scopes).toEqual(['read-write']);
    expect(onB.scopes).toEqual(['read-write']);
    await w.must(204, 'DELETE', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner });
    await expectCutOff(onA, watcher);
    await expectCutOff(onB, watcher);
  });

  it('ends the WebSocket when the room is deleted', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'editor');
    const client = await raw(guest, room);
    await w.must(204, 'DELETE', `/v1/rooms/${room}`, { as: w.people.owner });
    await waitFor('access.revoked', () => revoked(client));
    client.authenticate();
    await waitFor('the socket to close', () => client.closeCode !== null);
    expect(client.closeCode).toBe(4403);
    expect(client.scopes).toEqual(['read-write']);
  });

  it('ends the WebSocket when the token its ticket came from is revoked', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'editor');
    const watcher = await raw(w.people.owner, room);
    const { token, id } = await w.newToken(guest);
    const client = await raw({ ...guest, token }, room);
    await w.must(204, 'DELETE', `/v1/tokens/${id}`, { as: guest });
    await expectCutOff(client, watcher);
  });

  it('takes the role from the current state at every Auth: a demoted editor stays read-only and a second Auth ends the socket', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'editor');
    const watcher = await raw(w.people.owner, room);
    const client = await raw(guest, room);
    expect(client.scopes).toEqual(['read-write']);
    await waitFor('hello', () => client.messages.find((m) => m.kind === 'hello'));
    expect(client.messages.find((m) => m.kind === 'hello').role).toBe('editor');

    await w.must(204, 'PATCH', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner, body: { role: 'viewer' } });
    await waitFor('the new role', () => client.messages.find((m) => m.kind === 'access' && m.role === 'viewer'));
    client.write('written as a viewer');
    await waitFor('the refusal', () => client.refused > 0);

    // Close the document and authenticate again on the same socket, as the attack did.
    client.closeDocument();
    await waitFor('the document to close', () => client.closeMessages.length > 0);
    client.authenticate();
    client.write('written after a second Auth');
    await waitFor('the socket to close', () => client.closeCode !== null);
    expect(client.closeCode).toBe(4400);
    expect(client.scopes).toEqual(['read-write']);
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.text()).not.toContain('written');
  });

  it('gives a ticket issued to an editor who is demoted before connecting a read-only socket', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'editor');
    const url = await ticketUrl(w, guest, room, 'rooms', nodes[0].origin);
    await w.must(204, 'PATCH', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner, body: { role: 'viewer' } });
    const client = await openRaw(url, room);
    clients.push(client);
    expect(client.scopes).toEqual(['readonly']);
    await waitFor('hello', () => client.messages.find((m) => m.kind === 'hello'));
    expect(client.messages.find((m) => m.kind === 'hello').role).toBe('viewer');
  });

  it('opens one document per socket: an Auth for another room, even one the person may edit, ends the socket', async () => {
    const guest = await w.signIn();
    const room = await roomWith(guest, 'viewer');
    const other = await roomWith(guest, 'editor');
    const client = await raw(guest, room, nodes[0], { authenticate: false });
    client.authenticate(other);
    await waitFor('the socket to close', () => client.closeCode !== null);
    expect(client.closeCode).toBe(4400);
    expect(client.scopes).toEqual([]);
  });

  it(`admits exactly ${CAP} sockets of a burst into a room on a node, the rest 429, and frees places as sockets close`, async () => {
    const room = await roomWith(await w.signIn(), 'viewer');
    const urls = await Promise.all(Array.from({ length: CAP * 3 }, () => ticketUrl(w, w.people.owner, room, 'rooms', nodes[0].origin)));
    const outcomes = await Promise.allSettled(urls.map((url) => openRaw(url, room, { authenticate: false })));
    const opened = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    clients.push(...opened);
    const statuses = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as RawRefusal).status] : []));
    expect(opened.length).toBe(CAP);
    expect(statuses).toEqual(Array(CAP * 2).fill(429));

    // The cap is per node (docs/decisions.md): the other node admits its own.
    const other = await Promise.allSettled(Array.from({ length: CAP + 5 }, async () => openRaw(await ticketUrl(w, w.people.owner, room, 'rooms', nodes[1].origin), room, { authenticate: false })));
    clients.push(...other.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])));
    expect(other.filter((o) => o.status === 'fulfilled').length).toBe(CAP);

    for (const client of opened.slice(0, 5)) client.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await Promise.allSettled(Array.from({ length: 8 }, async () => openRaw(await ticketUrl(w, w.people.owner, room, 'rooms', nodes[0].origin), room, { authenticate: false })));
    clients.push(...again.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])));
    expect(again.filter((o) => o.status === 'fulfilled').length).toBe(5);
  });

  it('ends only the socket that sends a malformed or oversized frame', async () => {
    const room = await roomWith(await w.signIn(), 'viewer');
    const watcher = await raw(w.people.owner, room);
    const garbage = await raw(w.people.owner, room);
    garbage.sendBytes(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    await waitFor('the garbage socket to close', () => garbage.closeCode !== null);
    const huge = await raw(w.people.owner, room);
    huge.sendBytes(new Uint8Array(3 * 1024 * 1024));
    await waitFor('the oversized socket to close', () => huge.closeCode !== null);
    expect(huge.closeCode).toBe(1009);
    const writer = await raw(w.people.owner, room);
    writer.write('still served');
    await waitFor('the edit to reach the watcher', () => watcher.text().includes('still served'));
    expect(watcher.isOpen()).toBe(true);
  });

  it('refuses an update that does not fit the document model: the socket ends (4400), nobody gets it, the room stays readable', async () => {
    const room = await roomWith(await w.signIn(), 'viewer');
    const watcher = await raw(w.people.owner, room);
    const hostile = await raw(w.people.owner, room);
    const pageId = hostile.doc.getArray<Y.Map<string>>('pages').get(0).get('id');
    // A Y.Text where the page's XML fragment belongs, built on a copy of what the client holds.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(hostile.doc));
    const before = Y.encodeStateVector(copy);
    copy.getText(`page:${pageId}`).insert(0, 'plain text where XML belongs');
    const acked = hostile.acked;
    hostile.sendUpdate(Y.encodeStateAsUpdate(copy, before));
    await waitFor('the socket to close', () => hostile.closeCode !== null);
    expect(hostile.closeCode).toBe(4400);
    expect(hostile.acked).toBe(acked);
    watcher.write('after the attempt');
    const markdown = await w.call('GET', `/v1/rooms/${room}/markdown`, { as: w.people.owner });
    expect(markdown.status).toBe(200);
    const again = await raw(w.people.owner, room);
    expect(again.text()).not.toContain('plain text');
    expect(watcher.text()).not.toContain('plain text');
    await waitFor('the good edit to reach a new socket', () => again.text().includes('after the attempt'));
  });
});
