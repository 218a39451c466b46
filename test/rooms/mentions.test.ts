// @mentions in a room's document (POST …/mentions): the person mentioned, one
// of the room's people, is e-mailed once per page per few minutes, never the
// author; outsiders learn nothing of the room.
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { MENTIONS_PER_AUTHOR } from '@/lib/rooms/mentions.ts';
import { useSmtpServer } from '../helpers.ts';
import { mailText } from '../smtp-server.ts';
import { useFrontServer } from '../server.ts';
import { World, type Person } from '../http/world.ts';

const server = useFrontServer();
const smtp = useSmtpServer();
let w: World;
let people: Record<'owner' | 'member' | 'viewer' | 'guest' | 'outsider', Person>;
let room: string;

beforeAll(async () => {
  w = new World(server.origin, 'mn');
  const [owner, member, viewer, guest, outsider] = await Promise.all(Array.from({ length: 5 }, () => w.signIn()));
  people = { owner, member, viewer, guest, outsider };
  await w.must(200, 'POST', '/v1/workspaces', { as: owner, body: { slug: w.slug, name: 'Mentions' } });
  await db.workspace.update({ where: { slug: w.slug }, data: { plan: 'enterprise' } });
  for (const [person, role] of [[member, 'member'], [viewer, 'viewer']] as const) {
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/members`, { as: owner, body: { handle: person.handle, role } });
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/accept`, { as: person });
  }
  room = (await w.must(200, 'POST', '/v1/rooms', { as: owner, body: { workspace: w.slug, name: 'Launch plan' } })).id;
  // Someone from outside the workspace, added to the room alone.
  await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: owner, body: { to: guest.handle, role: 'viewer' } });
  for (const person of Object.values(people)) await db.user.update({ where: { id: person.id }, data: { email: `${person.handle}@example.com` } });
}, 60_000);

const mention = (as: Person, handle: string, pageId = 'page1', id = room) => w.call('POST', `/v1/rooms/${id}/mentions`, { as, body: { handle, pageId } });

describe('mentions in rooms', () => {
  it('mails the person mentioned once per page per few minutes, and never the author', async () => {
    const { member, viewer, owner } = people;
    const first = await mention(member, viewer.handle);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ mailed: true });
    expect(smtp.mails.map((m) => m.to)).toEqual([[`<${viewer.handle}@example.com>`]]);
    const text = mailText(smtp.mails[0]);
    expect(text).toContain(`@${member.handle} mentioned you`);
    expect(text).toContain('Launch plan');
    expect(text).toContain(`${config.publicUrl}/rooms/${room}?page=page1`);

    // Mentioned again on the page, by anyone: no second message for a while.
    expect((await mention(member, viewer.handle)).json).toEqual({ mailed: false });
    expect((await mention(owner, viewer.handle)).json).toEqual({ mailed: false });
    expect(smtp.mails).toHaveLength(1);
    // Another page is another message; mentioning oneself tells nobody.
    expect((await mention(member, viewer.handle, 'page2')).json).toEqual({ mailed: true });
    expect((await mention(member, member.handle, 'page3')).json).toEqual({ mailed: false });
    expect(smtp.mails.map((m) => m.to)).toEqual([[`<${viewer.handle}@example.com>`], [`<${viewer.handle}@example.com>`]]);
  });

  it('mentions anyone of the room: workspace members and people added to it', async () => {
    expect((await mention(people.owner, people.guest.handle)).json).toEqual({ mailed: true });
    expect((await mention(people.owner, people.member.handle, 'page9')).json).toEqual({ mailed: true });
  });

  it('refuses those who cannot edit, people who are not of the room, and hides the room from outsiders', async () => {
    const { owner, viewer, outsider, member } = people;
    const before = smtp.mails.length;
    const hidden = await mention(outsider, member.handle);
    expect(hidden.status).toBe(404);
    expect(hidden.json.error.code).toBe('not_found');
    expect((await mention(member, owner.handle, 'page1', 'rm_nope')).status).toBe(404);
    // Workspace viewers comment in rooms; they do not write in them.
    expect((await mention(viewer, member.handle)).status).toBe(403);
    const stranger = await mention(owner, outsider.handle);
    expect(stranger.status).toBe(404);
    expect(stranger.json.error.message).toContain(`@${outsider.handle}`);
    expect((await w.call('POST', `/v1/live-spaces/${room}/mentions`, { as: owner, body: { handle: member.handle, pageId: 'page1' } })).status).toBe(404);
    expect((await mention(owner, member.handle, '../x')).status).toBe(400);
    expect(smtp.mails.length).toBe(before);
  });

  it('caps how many mentions one author sends, whatever the pages named', async () => {
    const author = await w.signIn();
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/members`, { as: people.owner, body: { handle: author.handle, role: 'member' } });
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/accept`, { as: author });
    for (let i = 0; i < MENTIONS_PER_AUTHOR; i++) expect((await mention(author, people.owner.handle, `spam${i}`)).status).toBe(200);
    const refused = await mention(author, people.owner.handle, 'spam-last');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeTruthy();
  });

  it('sends nothing without SMTP', async () => {
    const url = config.smtpUrl;
    config.smtpUrl = undefined;
    try {
      expect((await mention(people.member, people.owner.handle, 'quiet')).json).toEqual({ mailed: false });
    } finally {
      config.smtpUrl = url;
    }
  });
});
