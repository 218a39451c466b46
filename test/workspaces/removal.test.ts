// Removing a member from a workspace takes away the rooms, live spaces and
// apps they had there, those they created included, on open sockets too,
// unless the admin keeps named rooms for them as a guest.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerAs } from '@/lib/core/caller.ts';
import { actorForSecret } from '@/lib/auth/tokens.ts';
import { memberRoomGrants } from '@/lib/workspaces/members.ts';
import { createRealtime, type Realtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import type { Person } from '../http/world.ts';
import { World } from '../http/world.ts';
import { openRaw, RawRefusal, type RawClient } from '../rooms/raw-client.ts';
import { ticketUrl, waitFor } from '../rooms/socket-helpers.ts';

let realtime: Realtime;
let server: ReturnType<typeof createFrontServer>;
let w: World;
const clients: RawClient[] = [];

beforeAll(async () => {
  // A long re-check period: the removal itself must cut the sockets off, not the timer.
  realtime = createRealtime({ name: 'removal', recheckMs: 60_000 });
  server = createFrontServer({ upgrades: realtime.handleUpgrade });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  w = await new World(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'rm').build();
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const PREFIX = { room: 'rooms', live: 'live-spaces' } as const;

async function create(person: Person, kind: 'room' | 'live', name: string): Promise<string> {
  return (await w.must(200, 'POST', `/v1/${PREFIX[kind]}`, { as: person, body: { workspace: w.slug, name } })).id;
}

async function raw(person: Person, id: string, prefix = 'rooms') {
  const client = await openRaw(await ticketUrl(w, person, id, prefix), id);
  clients.push(client);
  return client;
}

const removeMember = (person: Person, body?: unknown) => w.call('DELETE', `/v1/workspaces/${w.slug}/members/${person.handle}`, { as: w.people.admin, body });

async function found(person: Person, words: string): Promise<string[]> {
  const { results } = await w.must(200, 'GET', '/v1/search', { as: person, query: { q: words, limit: '20' } });
  return results.map((r: { path: string }) => r.path);
}

describe('removing a member from a workspace', () => {
  it("ends their grants in the rooms, live spaces and apps they created: open sockets close (4403), new ones are refused, the API, search and the inbox no longer show them, and the workspace's owners still own them", async () => {
    const member = (await w.fresh('member'))!;
    const word = `gone${Math.random().toString(36).slice(2, 8)}`;
    const room = await create(member, 'room', `Plans ${word}`);
    const live = await create(member, 'live', `Board ${word}`);
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room}/build`, { as: member, body: {} });
    await w.must(200, 'PATCH', `/v1/apps/${app.id}`, { as: member, body: { name: `App ${word}` } });
    await w.must(200, 'POST', `/v1/rooms/${room}/mentions`, { as: w.people.owner, body: { handle: member.handle, pageId: (await firstPage(room)) } });
    expect((await w.must(200, 'GET', `/v1/rooms/${room}`, { as: member })).role).toBe('owner');
    expect(await found(member, word)).toEqual(expect.arrayContaining([`/rooms/${room}`, `/live-spaces/${live}`, `/apps/${app.id}`]));
    expect((await w.must(200, 'GET', '/v1/notifications', { as: member })).notifications.map((n: { kind: string }) => n.kind)).toContain('mention');

    const onRoom = await raw(member, room);
    const onLive = await raw(member, live, 'live-spaces');
    expect(onRoom.scopes).toEqual(['read-write']);
    const laterTicket = await ticketUrl(w, member, room);

    expect((await removeMember(member)).status).toBe(204);

    for (const socket of [onRoom, onLive]) {
      await waitFor('access.revoked', () => socket.messages.some((m) => m.kind === 'access.revoked'));
      await waitFor('the socket to close', () => socket.closeCode !== null);
      expect(socket.closeCode).toBe(4403);
    }
    const refusal = await openRaw(laterTicket, room).then(
      (c) => (clients.push(c), null),
      (error: RawRefusal) => error,
    );
    expect(refusal?.status).toBe(404);
    expect((await w.call('POST', `/v1/rooms/${room}/ticket`, { as: member })).status).toBe(404);
    expect((await w.call('GET', `/v1/rooms/${room}`, { as: member })).status).toBe(404);
    expect((await w.call('GET', `/v1/live-spaces/${live}`, { as: member })).status).toBe(404);
    expect((await w.call('GET', `/v1/apps/${app.id}`, { as: member })).status).toBe(404);
    expect((await w.must(200, 'GET', '/v1/rooms', { as: member })).rooms.map((r: { id: string }) => r.id)).not.toContain(room);
    expect(await found(member, word)).toEqual([]);
    expect((await w.must(200, 'GET', '/v1/notifications', { as: member })).notifications).toEqual([]);

    // Never without an owner: the workspace's owners and admins own what the member made.
    const people = await w.must(200, 'GET', `/v1/rooms/${room}/people`, { as: w.people.owner });
    const roles = Object.fromEntries(people.members.map((m: { user: { handle: string }; role: string }) => [m.user.handle, m.role]));
    expect(roles[w.people.owner.handle]).toBe('owner');
    expect(roles[member.handle]).toBeUndefined();
    expect((await w.must(200, 'GET', `/v1/rooms/${room}`, { as: w.people.admin })).caps.manage).toBe(true);
  });

  it("shows owners and admins, for the remove dialog, each member's rooms and live spaces with their apps, and nobody else", async () => {
    const member = (await w.fresh('member'))!;
    const room = await create(member, 'room', 'Listed room');
    const live = await create(member, 'live', 'Listed board');
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room}/build`, { as: member, body: {} });
    const as = async (person: Person) => callerAs((await actorForSecret(person.token))!);
    const listed = await memberRoomGrants(await as(w.people.admin), w.slug);
    expect(listed[member.handle]).toEqual([
      { id: room, kind: 'room', name: 'Listed room', role: 'owner', apps: [{ id: app.id, name: app.name }] },
      { id: live, kind: 'live', name: 'Listed board', role: 'owner', apps: [] },
    ]);
    await expect(memberRoomGrants(await as(w.people.member), w.slug)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(memberRoomGrants(await as(w.people.outsider), w.slug)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps the rooms the admin names open to them as a guest, at most an editor, and ends the rest', async () => {
    const member = (await w.fresh('member'))!;
    const word = `kept${Math.random().toString(36).slice(2, 8)}`;
    const kept = await create(member, 'room', `Kept ${word}`);
    const ended = await create(member, 'room', `Ended ${word}`);
    const onKept = await raw(member, kept);
    const onEnded = await raw(member, ended);

    expect((await removeMember(member, { keepAsGuest: [kept] })).status).toBe(204);

    await waitFor('the socket to close', () => onEnded.closeCode !== null);
    expect(onEnded.closeCode).toBe(4403);
    await waitFor('the guest role', () => onKept.messages.find((m) => m.kind === 'access' && m.role === 'editor'));
    expect(onKept.closeCode).toBeNull();
    const room = await w.must(200, 'GET', `/v1/rooms/${kept}`, { as: member });
    expect(room.role).toBe('editor');
    expect(room.caps.manage).toBe(false);
    expect((await w.call('GET', `/v1/rooms/${ended}`, { as: member })).status).toBe(404);
    expect(await found(member, word)).toEqual([`/rooms/${kept}`]);
    expect((await w.must(200, 'GET', '/v1/workspaces', { as: member })).map((x: { slug: string }) => x.slug)).not.toContain(w.slug);
  });

  it('refuses a keepAsGuest that names a room that is not theirs, a malformed one, or one sent by someone leaving, and changes nothing', async () => {
    const member = (await w.fresh('member'))!;
    const theirs = await create(member, 'room', 'Theirs');
    const someoneElses = await create(w.people.owner, 'room', 'Not theirs');
    const refused = [
      { keepAsGuest: [someoneElses] },
      { keepAsGuest: ['room_nope'] },
      { keepAsGuest: theirs },
      { keepAsGuest: [theirs, 7] },
      { keepAsGuest: [''] },
      { keepAsGuest: Array.from({ length: 1001 }, () => theirs) },
    ];
    for (const body of refused) {
      const answer = await removeMember(member, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.json.error.message).toMatch(/keepAsGuest/);
    }
    const leaving = await w.call('DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: member, body: { keepAsGuest: [theirs] } });
    expect(leaving.status).toBe(400);
    const notJson = await w.call('DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: w.people.admin, raw: Buffer.from('keepAsGuest=x'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(notJson.status).toBe(415);
    expect((await w.must(200, 'GET', `/v1/rooms/${theirs}`, { as: member })).role).toBe('owner');

    // Leaving without a body is still the member's own choice, and ends their grants too.
    expect((await w.call('DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: member })).status).toBe(204);
    expect((await w.call('GET', `/v1/rooms/${theirs}`, { as: member })).status).toBe(404);
  });

  it('refuses a room of another workspace, an oversized body, and takes two removals at once as one', async () => {
    const member = (await w.fresh('member'))!;
    const mine = await create(member, 'room', 'Mine');
    const elsewhere = `rm-other-${Math.random().toString(36).slice(2, 8)}`;
    await w.must(200, 'POST', '/v1/workspaces', { as: member, body: { slug: elsewhere, name: 'Elsewhere' } });
    const outside = (await w.must(200, 'POST', '/v1/rooms', { as: member, body: { workspace: elsewhere, name: 'Outside' } })).id;
    expect((await removeMember(member, { keepAsGuest: [outside] })).status).toBe(400);
    const huge = await removeMember(member, { keepAsGuest: [mine], padding: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);

    const [first, second] = await Promise.all([removeMember(member, { keepAsGuest: [mine] }), w.call('DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: w.people.owner })]);
    expect([first.status, second.status].sort()).toEqual([204, 404]);
    // The room of their own workspace is untouched whichever came first.
    expect((await w.must(200, 'GET', `/v1/rooms/${outside}`, { as: member })).role).toBe('owner');
    const kept = first.status === 204;
    expect((await w.call('GET', `/v1/rooms/${mine}`, { as: member })).status).toBe(kept ? 200 : 404);
  });

  it('revokes the room invite links they made, so they cannot let themselves back in', async () => {
    const member = (await w.fresh('member'))!;
    const room = await create(member, 'room', 'Way back');
    const { invite } = await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: member, body: { to: 'alt@example.com', role: 'editor' } });
    const token = new URL(invite.url).pathname.split('/').pop();
    expect((await removeMember(member)).status).toBe(204);
    expect((await w.call('POST', '/v1/room-invites/accept', { as: member, body: { token } })).status).toBe(404);
    expect((await w.call('GET', `/v1/rooms/${room}`, { as: member })).status).toBe(404);
  });

  it('leaves an invitee their guest grants when their invitation is cancelled', async () => {
    const invitee = (await w.fresh('invited'))!;
    const room = await create(w.people.owner, 'room', 'Guest before joining');
    await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: w.people.owner, body: { to: invitee.handle, role: 'commenter' } });
    expect((await removeMember(invitee)).status).toBe(204);
    expect((await w.must(200, 'GET', `/v1/rooms/${room}`, { as: invitee })).role).toBe('commenter');
  });

  it('leaves no grant when the member creates rooms while being removed', async () => {
    // Each round races eight creations against the removal; a creation that
    // passed its access check before the removal committed must not insert.
    for (let round = 0; round < 3; round++) {
      const member = (await w.fresh('member'))!;
      const creations = Array.from({ length: 8 }, (_, i) => w.call('POST', '/v1/rooms', { as: member, body: { workspace: w.slug, name: `Race ${i}` } }));
      const [removal, ...created] = await Promise.all([removeMember(member), ...creations]);
      expect(removal.status).toBe(204);
      for (const answer of created) {
        expect([200, 404]).toContain(answer.status);
        if (answer.status === 200) expect((await w.call('GET', `/v1/rooms/${answer.json.id}`, { as: member })).status).toBe(404);
      }
    }
  });
});

async function firstPage(room: string): Promise<string> {
  const client = await raw(w.people.owner, room);
  const id = await waitFor('the first page', () => client.doc.getArray<{ get: (k: string) => string }>('pages').get(0)?.get('id'));
  client.close();
  return id;
}
