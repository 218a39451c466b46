// Room sockets end to end, through the front server's upgrade hook, with the
// provider the web editor uses: sync, read-only refusal, chat, chat.deleted,
// blocking, access re-checks (removal, role change, token revocation, room
// deletion), and tickets that open one socket once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFrontServer } from '@/server/index.ts';
import { db } from '@/lib/db/client.ts';
import { createRealtime } from '@/realtime/server.ts';
import { registry } from '@/lib/core/metrics.ts';
import { multipartFile, World } from '../http/world.ts';
import { connect, ticketUrl, waitFor, type Client } from './socket-helpers.ts';

const realtime = createRealtime({ debounceMs: 200, maxDebounceMs: 1000, recheckMs: 500 });
const server = createFrontServer({ upgrades: realtime.handleUpgrade });
let w: World;
let room: string;
const clients: Client[] = [];

async function open(person: 'owner' | 'admin' | 'member' | 'viewer' | import('../http/world.ts').Person, roomId = room, sync = true) {
  const who = typeof person === 'string' ? w.people[person] : person;
  const client = await connect(await ticketUrl(w, who, roomId), roomId, { sync });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  w = await new World(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'rt').build();
  room = w.rooms.room;
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('room sockets', () => {
  it('syncs edits between clients and stores them', async () => {
    const a = await open('owner');
    const b = await open('member');
    expect(a.text()).toBe(b.text());
    b.write('Hello from the member');
    await waitFor('the edit to reach the owner', () => a.text().includes('Hello from the member'));
    // Stored after the debounce: the Markdown export reads the database.
    let text = '';
    for (let i = 0; i < 50 && !text.includes('Hello from the member'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = (await w.call('GET', `/v1/rooms/${room}/markdown`, { as: w.people.viewer })).text;
    }
    expect(text).toContain('Hello from the member');
  });

  it('logs each edit before acknowledging it, and deletes the log once the stored document holds it', async () => {
    const { id } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Logged' } });
    const a = await open('owner', id);
    a.write('Logged first');
    await waitFor('the acknowledgement', () => a.provider.unsyncedChanges === 0);
    // Acknowledged: in the log (or already folded into the stored state by a quick debounce).
    const stored = async () => (await db.room.findUniqueOrThrow({ where: { id }, select: { roomDoc: true } })).roomDoc?.byteLength ?? 0;
    expect((await db.roomUpdate.count({ where: { roomId: id } })) > 0 || (await stored()) > 0).toBe(true);
    let left = -1;
    for (let i = 0; i < 50 && left !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await db.roomUpdate.count({ where: { roomId: id } });
    }
    expect(left).toBe(0);
    expect((await w.call('GET', `/v1/rooms/${id}/markdown`, { as: w.people.owner })).text).toContain('Logged first');
  });

  it('refuses the updates of viewers and commenters: they read but do not write', async () => {
    const owner = await open('owner');
    const commenter = await open('viewer'); // a workspace viewer is a commenter in the room
    commenter.write('Sneaky edit');
    owner.write('Owner edit');
    await waitFor('the owner edit to reach the commenter', () => commenter.text().includes('Owner edit'));
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.text()).not.toContain('Sneaky edit');
    expect(commenter.messages.find((m) => m.kind === 'hello')).toMatchObject({ role: 'commenter', caps: { edit: false, comment: true } });
  });

  it("tells the room's sockets when its sources or people change, so open panels read them again", async () => {
    const owner = await open('owner');
    const member = await open('member');
    const { body, type } = multipartFile('notes.txt', 'text/plain', 'live sources');
    const source = await w.must(200, 'POST', `/v1/rooms/${room}/sources`, { as: w.people.member, raw: body, headers: { 'content-type': type } });
    for (const c of [owner, member]) await waitFor('sources changed', () => c.messages.find((m) => m.kind === 'changed' && m.what === 'sources'));
    owner.messages.length = 0;
    await w.must(204, 'DELETE', `/v1/rooms/${room}/sources/${source.id}`, { as: w.people.member });
    await waitFor('sources changed on delete', () => owner.messages.find((m) => m.kind === 'changed' && m.what === 'sources'));
    const invited = await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: w.people.owner, body: { to: 'live-panels@example.com', role: 'viewer' } });
    await waitFor('people changed on an invitation', () => member.messages.find((m) => m.kind === 'changed' && m.what === 'people'));
    member.messages.length = 0;
    await w.must(204, 'DELETE', `/v1/rooms/${room}/invites/${invited.invite.id}`, { as: w.people.owner });
    await waitFor('people changed when it is revoked', () => member.messages.find((m) => m.kind === 'changed' && m.what === 'people'));
  });

  it('carries chat, with history on connect, and chat.deleted when a message is deleted over the API', async () => {
    const owner = await open('owner');
    const member = await open('member');
    member.say('Hi all');
    const got = await waitFor('the message', () => owner.messages.find((m) => m.kind === 'chat.message' && m.message.body === 'Hi all'));
    expect(got.message.author.handle).toBe(w.people.member.handle);
    const late = await open('admin');
    expect((await waitFor('the history', () => late.messages.find((m) => m.kind === 'chat.history'))).messages.map((m: { body: string }) => m.body)).toContain('Hi all');
    await w.must(204, 'DELETE', `/v1/rooms/${room}/messages/${got.message.id}`, { as: w.people.member });
    for (const c of [owner, member, late]) await waitFor('chat.deleted', () => c.messages.find((m) => m.kind === 'chat.deleted' && m.messageId === got.message.id));
    // Viewers of the room (not commenters) cannot chat.
    const guest = await w.roomGuest('room');
    const viewer = await open(guest);
    viewer.say('let me in');
    await waitFor('a refusal', () => viewer.messages.find((m) => m.kind === 'chat.error'));
  });

  it("hides a blocked user's messages from the blocker from the next connect", async () => {
    const blocker = await w.fresh('member');
    const blocked = await w.fresh('member');
    const blocking = await w.call('POST', '/v1/me/blocks', { as: blocker!, body: { userId: blocked!.id } });
    expect(blocking.status).toBeLessThan(300);
    const b = await open(blocker!);
    const other = await open('owner');
    const sender = await open(blocked!);
    sender.say('you cannot see me');
    other.say('but you see me');
    await waitFor('the owner sees both', () => other.messages.filter((m) => m.kind === 'chat.message' && /see me/.test(m.message.body)).length === 2);
    await waitFor("the blocker sees the owner's", () => b.messages.find((m) => m.kind === 'chat.message' && m.message.body === 'but you see me'));
    expect(b.messages.some((m) => m.kind === 'chat.message' && m.message.body === 'you cannot see me')).toBe(false);
    const again = await open(blocker!);
    const history = (await waitFor('the history', () => again.messages.find((m) => m.kind === 'chat.history'))).messages.map((m: { body: string }) => m.body);
    expect(history).toContain('but you see me');
    expect(history).not.toContain('you cannot see me');
  });

  it('closes the socket of someone removed, and makes a demoted editor read-only, within seconds', async () => {
    const guest = await w.roomGuest('room');
    await w.must(204, 'PATCH', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner, body: { role: 'editor' } });
    const owner = await open('owner');
    const g = await open(guest);
    g.write('guest edit');
    await waitFor('the guest edit', () => owner.text().includes('guest edit'));
    await w.must(204, 'PATCH', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner, body: { role: 'viewer' } });
    await waitFor('the role change', () => g.messages.find((m) => m.kind === 'access' && m.role === 'viewer'));
    g.write('after demotion');
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.text()).not.toContain('after demotion');
    await w.must(204, 'DELETE', `/v1/rooms/${room}/people/${guest.handle}`, { as: w.people.owner });
    await waitFor('the socket to close', () => g.closed ?? g.messages.find((m) => m.kind === 'access.revoked'), 5000);
  });

  it('closes the socket when its token is revoked or the room is deleted', async () => {
    const person = await w.fresh('member');
    const { token, id } = await w.newToken(person!);
    const c = await open({ ...person!, token });
    await w.must(204, 'DELETE', `/v1/tokens/${id}`, { as: person! });
    await waitFor('the socket to close', () => c.closed, 5000);
    const doomed = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug } });
    const d = await open('member', doomed.id);
    await w.must(204, 'DELETE', `/v1/rooms/${doomed.id}`, { as: w.people.owner });
    await waitFor('the socket to close', () => d.closed, 5000);
  });

  it('refuses a socket without a valid ticket, and a ticket used twice, before any socket opens', async () => {
    const base = w.origin.replace(/^http/, 'ws');
    const refused = (url: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url);
        socket.onopen = () => resolve(101);
        socket.onerror = () => resolve(0);
      });
    expect(await refused(`${base}/v1/rooms/${room}/ws`)).toBe(0);
    expect(await refused(`${base}/v1/rooms/${room}/ws?ticket=forged.ticket`)).toBe(0);
    const url = await ticketUrl(w, w.people.owner, room);
    expect(await refused(url)).toBe(101);
    expect(await refused(url)).toBe(0);
    // A ticket names its room: it opens no other.
    const other = await ticketUrl(w, w.people.owner, room);
    expect(await refused(other.replace(room, w.rooms.live).replace('/rooms/', '/live-spaces/'))).toBe(0);
  });

  // Last: it drains the node.
  it('counts in /metrics the sockets opened, the upgrades refused by code, and the sockets a drain closes', async () => {
    const metric = (name: string) => registry.getSingleMetricAsString(name);
    const value = async (name: string, labels = '') => Number(new RegExp(`^${name}\\{${labels}[^}]*\\} (\\d+)$`, 'm').exec(await metric(name))?.[1] ?? 0);
    const opened = await value('atrium_realtime_socket_upgrades_total');
    const unauthorized = await value('atrium_realtime_socket_refusals_total', 'code="unauthorized"');
    const drained = await value('atrium_realtime_sockets_drained_total');
    const client = await open('owner');
    expect(await value('atrium_realtime_socket_upgrades_total')).toBe(opened + 1);
    expect(await value('atrium_realtime_sockets')).toBeGreaterThanOrEqual(1);
    // One upgrade request, by hand (a WebSocket client may try again).
    const refusal = await new Promise<number>((resolve, reject) => {
      const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
      const upgrade = httpRequest(`${w.origin}/v1/rooms/${room}/ws?ticket=forged.ticket`, { headers }, (response) => resolve(response.statusCode ?? 0));
      upgrade.on('error', reject).end();
    });
    expect(refusal).toBe(401);
    expect(await value('atrium_realtime_socket_refusals_total', 'code="unauthorized"')).toBe(unauthorized + 1);
    await realtime.stop();
    await waitFor('the drain to close the socket', () => client.closed);
    expect(client.closed!.code).toBe(4205);
    // This client's socket among the others still open from earlier tests.
    expect(await value('atrium_realtime_sockets_drained_total')).toBeGreaterThan(drained);
    expect(await value('atrium_realtime_sockets')).toBe(0);
  });
});
