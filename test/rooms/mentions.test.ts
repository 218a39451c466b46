// @mentions in a room's document (POST …/mentions): the person mentioned, one
// of the room's people, is notified in their inbox and e-mailed once per page
// per few minutes, never the author; outsiders learn nothing of the room, and
// the notification is seen only while the person is still of the room.
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
    expect(first.json).toEqual({ notified: true, mailed: true });
    expect((await smtp.sent()).map((m) => m.to)).toEqual([[`<${viewer.handle}@example.com>`]]);
    const text = mailText((await smtp.sent())[0]);
    expect(text).toContain(`@${member.handle} mentioned you`);
    expect(text).toContain('Launch plan');
    expect(text).toContain(`${config.publicUrl}/rooms/${room}?page=page1`);

    // Mentioned again on the page, by anyone: no second message for a while.
    expect((await mention(member, viewer.handle)).json).toEqual({ notified: false, mailed: false });
    expect((await mention(owner, viewer.handle)).json).toEqual({ notified: false, mailed: false });
    expect((await smtp.sent())).toHaveLength(1);
    // Another page is another message; mentioning oneself tells nobody.
    expect((await mention(member, viewer.handle, 'page2')).json).toEqual({ notified: true, mailed: true });
    expect((await mention(member, member.handle, 'page3')).json).toEqual({ notified: false, mailed: false });
    expect((await smtp.sent()).map((m) => m.to)).toEqual([[`<${viewer.handle}@example.com>`], [`<${viewer.handle}@example.com>`]]);
  });

  it('mentions anyone of the room: workspace members and people added to it', async () => {
    expect((await mention(people.owner, people.guest.handle)).json).toEqual({ notified: true, mailed: true });
    expect((await mention(people.owner, people.member.handle, 'page9')).json).toEqual({ notified: true, mailed: true });
  });

  it('refuses those who cannot edit, people who are not of the room, and hides the room from outsiders', async () => {
    const { owner, viewer, outsider, member } = people;
    const before = (await smtp.sent()).length;
    const hidden = await mention(outsider, member.handle);
    expect(hidden.status).toBe(404);
    expect(hidden.json.error.code).toBe('not_found');
    expect((await mention(member, owner.handle, 'page1', 'rm_nope')).status).toBe(404);
    // Workspace viewers comment in rooms; they do not write in them.
    expect((await mention(viewer, member.handle)).status).toBe(403);
    const stranger = await mention(owner, outsider.handle);
    expect(stranger.status).toBe(404);
    expect(stranger.json.error.message).toContain(`@${outsider.handle}`);
    // Invited to the workspace but not yet in it: not one of the room's people.
    const invited = await w.signIn();
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/members`, { as: owner, body: { handle: invited.handle, role: 'member' } });
    expect((await mention(owner, invited.handle)).status).toBe(404);
    expect((await w.call('POST', `/v1/live-spaces/${room}/mentions`, { as: owner, body: { handle: member.handle, pageId: 'page1' } })).status).toBe(404);
    expect((await mention(owner, member.handle, '../x')).status).toBe(400);
    expect((await smtp.sent()).length).toBe(before);
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
      expect((await mention(people.member, people.owner.handle, 'quiet')).json).toEqual({ notified: true, mailed: false });
    } finally {
      config.smtpUrl = url;
    }
  });

  it('puts the mention in the inbox, linked to the page, while the person is of the room', async () => {
    const { owner, member } = people;
    const reader = await w.signIn();
    await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: owner, body: { to: reader.handle, role: 'editor' } });
    expect((await mention(member, reader.handle, 'plan-b')).json).toEqual({ notified: true, mailed: false });
    // Mentioned again there by someone else: one entry still.
    expect((await mention(owner, reader.handle, 'plan-b')).json).toEqual({ notified: false, mailed: false });
    const inbox = await w.must(200, 'GET', '/v1/notifications', { as: reader });
    expect(inbox.unread).toBe(1);
    expect(inbox.notifications).toHaveLength(1);
    expect(inbox.notifications[0]).toMatchObject({
      kind: 'mention',
      read: false,
      actor: { handle: member.handle },
      workspace: { slug: w.slug },
      room: { id: room, kind: 'room', name: 'Launch plan', pageId: 'plan-b' },
      comment: null,
      space: null,
      path: `/rooms/${room}?page=plan-b`,
    });
    const id = inbox.notifications[0].id;

    // Taken out of the room, they no longer see it (nor can mark it read); put back, they do.
    await w.must(204, 'DELETE', `/v1/rooms/${room}/people/${reader.handle}`, { as: owner });
    expect((await w.must(200, 'GET', '/v1/notifications', { as: reader })).notifications).toEqual([]);
    expect((await w.call('POST', '/v1/notifications/read', { as: reader, body: { ids: [id] } })).status).toBe(404);
    await w.must(200, 'POST', `/v1/rooms/${room}/people`, { as: owner, body: { to: reader.handle, role: 'editor' } });
    expect((await w.must(200, 'POST', '/v1/notifications/read', { as: reader, body: { ids: [id] } })).unread).toBe(0);
  });

  it('mails a room mention only to those who keep "mention" in their notification settings', async () => {
    const { owner, viewer } = people;
    await w.must(200, 'PATCH', '/v1/me/notification-settings', { as: viewer, body: { mailOn: [] } });
    try {
      const before = (await smtp.sent()).length;
      expect((await mention(owner, viewer.handle, 'no-mail')).json).toEqual({ notified: true, mailed: false });
      expect((await smtp.sent()).length).toBe(before);
    } finally {
      await w.must(200, 'PATCH', '/v1/me/notification-settings', { as: viewer, body: { mailOn: ['mention'] } });
    }
  });

  it('links a mention in a live space to the live space', async () => {
    const { owner, member } = people;
    const live = (await w.must(200, 'POST', '/v1/live-spaces', { as: owner, body: { workspace: w.slug, name: 'Wiki' } })).id;
    expect((await w.call('POST', `/v1/live-spaces/${live}/mentions`, { as: owner, body: { handle: member.handle, pageId: 'home' } })).json).toEqual({ notified: true, mailed: true });
    const [latest] = (await w.must(200, 'GET', '/v1/notifications', { as: member })).notifications;
    expect(latest).toMatchObject({ room: { id: live, kind: 'live', name: 'Wiki', pageId: 'home' }, path: `/live-spaces/${live}?page=home` });
    expect(mailText((await smtp.sent()).at(-1)!)).toContain(`${config.publicUrl}/live-spaces/${live}?page=home`);
  });

  it('tells once when the same mention arrives many times at once', async () => {
    const { owner, guest } = people;
    const answers = await Promise.all(Array.from({ length: 12 }, () => mention(owner, guest.handle, 'race')));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.json.notified)).toHaveLength(1);
    const inbox = await w.must(200, 'GET', '/v1/notifications', { as: guest, query: { limit: '100' } });
    expect(inbox.notifications.filter((n: { room: { pageId: string } | null }) => n.room?.pageId === 'race')).toHaveLength(1);
  });
});
