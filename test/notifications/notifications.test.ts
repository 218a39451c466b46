// The inbox through the front server: each kind of event notifies the right
// people once and never the person who acted; notifications are marked read
// one by one or all at once; each person reads and marks only their own; a
// notification about something its person can no longer see is hidden; the
// inbox is trimmed; mail follows each person's choice of kinds.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client.ts';
import { INBOX_CAP, READ_KEPT_DAYS } from '@/lib/notifications/notifications.ts';
import type { NotificationPage } from '@/lib/schemas/notifications.ts';
import { useSmtpServer } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { manifest, World, type Person } from '../http/world.ts';

const server = useFrontServer();
const smtp = useSmtpServer();
let w: World;

beforeAll(async () => {
  w = await new World(server.origin, 'nt').build();
}, 60_000);

const inbox = (as: Person, query: Record<string, string> = { limit: '100' }): Promise<NotificationPage> => w.must(200, 'GET', '/v1/notifications', { as, query });
const kinds = async (as: Person) => (await inbox(as)).notifications.map((n) => n.kind);
const markRead = (as: Person, body: unknown) => w.call('POST', '/v1/notifications/read', { as, body });
const comment = (as: Person, space: string, body: Record<string, unknown>) => w.must(200, 'POST', `/v1/spaces/${space}/comments`, { as, body: { path: 'docs/guide.md', ...body } });

describe('events', () => {
  it('an invitation notifies the invitee, with the role offered and the dashboard to answer it', async () => {
    const { people, slug } = w;
    const [invitation] = (await inbox(people.invited)).notifications;
    expect(invitation).toMatchObject({ kind: 'invited', role: 'member', read: false, actor: { id: people.owner.id, handle: people.owner.handle }, workspace: { slug, name: 'Fixture team' }, path: '/' });
    expect(await kinds(people.owner)).not.toContain('invited');
    // Once accepted, it leads to the workspace, and it is read: the invitation is answered.
    const joiner = (await w.fresh('member'))!;
    expect(await inbox(joiner)).toMatchObject({ unread: 0, notifications: [expect.objectContaining({ kind: 'invited', path: `/w/${slug}`, read: true })] });
  });

  it('joining by an invite link answers an invitation by handle too: it is read', async () => {
    const invitee = (await w.fresh('invited'))!;
    expect((await inbox(invitee)).unread).toBe(1);
    await w.must(200, 'POST', '/v1/workspace-invites/accept', { as: invitee, body: { token: (await w.inviteLink()).token } });
    expect(await inbox(invitee)).toMatchObject({ unread: 0, notifications: [expect.objectContaining({ kind: 'invited', read: true })] });
  });

  it('a role change notifies the member whose role changed, not the admin who changed it', async () => {
    const person = (await w.fresh('member'))!;
    await w.must(204, 'PATCH', `/v1/workspaces/${w.slug}/members/${person.handle}`, { as: w.people.admin, body: { role: 'viewer' } });
    const [changed] = (await inbox(person)).notifications;
    expect(changed).toMatchObject({ kind: 'role_changed', role: 'viewer', actor: { handle: w.people.admin.handle }, path: `/w/${w.slug}` });
    expect(await kinds(w.people.admin)).not.toContain('role_changed');
  });

  it('an app going live notifies every member of its workspace but the one who took it live', async () => {
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const live = (await inbox(w.people[role])).notifications.filter((n) => n.kind === 'app_live');
      expect(live).toEqual([expect.objectContaining({ app: { id: w.app, name: expect.any(String) }, path: `/apps/${w.app}`, actor: expect.objectContaining({ id: w.people.owner.id }) })]);
    }
    for (const role of ['owner', 'invited', 'outsider'] as const) expect(await kinds(w.people[role])).not.toContain('app_live');
  });

  it('a mention notifies each person mentioned who can see the space, once, never the author', async () => {
    const { people, spaces } = w;
    const body = `@${people.member.handle} and @${people.outsider.handle}, see this; @${people.viewer.handle} and @${people.member.handle} again`;
    const created = await comment(people.viewer, spaces.members, { body });
    const mentions = (await inbox(people.member)).notifications.filter((n) => n.kind === 'mention');
    expect(mentions).toEqual([
      expect.objectContaining({
        space: { id: spaces.members, name: 'members space' },
        comment: { id: created.id, path: 'docs/guide.md', body },
        path: `/spaces/${spaces.members}/comments?path=docs%2Fguide.md#${created.id}`,
      }),
    ]);
    // The outsider cannot see a members-only space; the author mentioned themself.
    expect(await kinds(people.outsider)).not.toContain('mention');
    expect(await kinds(people.viewer)).not.toContain('mention');
  });

  it("a reply notifies the thread's author (once, when the reply also mentions them), never a reply of their own", async () => {
    const { people, spaces, comments } = w;
    const before = (await kinds(people.owner)).length;
    await comment(people.member, spaces.members, { body: 'A reply', parentId: comments.members });
    await comment(people.member, spaces.members, { body: `@${people.owner.handle} look`, parentId: comments.members });
    await comment(people.owner, spaces.members, { body: 'My own reply', parentId: comments.members });
    const latest = (await inbox(people.owner)).notifications.slice(0, 2);
    expect((await kinds(people.owner)).length).toBe(before + 2);
    expect(latest.map((n) => n.kind)).toEqual(['mention', 'reply']);
    expect(latest[1].comment).toMatchObject({ body: 'A reply' });
    expect(await kinds(people.admin)).not.toContain('reply');
  });

  it("resolving a thread notifies its author, unless they resolved it", async () => {
    const { people, spaces } = w;
    const thread = await comment(people.member, spaces.public, { body: 'Typo here', quote: 'Guide' });
    await w.must(200, 'POST', `/v1/comments/${thread.id}/resolve`, { as: people.admin });
    expect((await inbox(people.member)).notifications[0]).toMatchObject({ kind: 'resolved', comment: { id: thread.id }, actor: { handle: people.admin.handle } });
    const own = await comment(people.member, spaces.public, { body: 'Mine', quote: 'Guide' });
    await w.must(200, 'POST', `/v1/comments/${own.id}/resolve`, { as: people.member });
    expect((await inbox(people.member)).notifications.filter((n) => n.kind === 'resolved')).toHaveLength(1);
  });
});

describe('reading the inbox', () => {
  it('marks notifications read by id or all at once, and counts what is unread', async () => {
    const person = (await w.fresh('viewer'))!;
    for (const text of ['one', 'two', 'three']) await comment(w.people.owner, w.spaces.members, { body: `@${person.handle} ${text}` });
    // The three mentions; the invitation was read when they accepted it.
    const page = await inbox(person);
    expect(page.unread).toBe(3);
    const [newest] = page.notifications;
    expect(await markRead(person, { ids: [newest.id] })).toMatchObject({ status: 200, json: { unread: 2 } });
    const after = await inbox(person);
    expect(after.notifications.find((n) => n.id === newest.id)?.read).toBe(true);
    expect(after.unread).toBe(2);
    // Marking again changes nothing.
    expect((await markRead(person, { ids: [newest.id] })).json).toEqual({ unread: 2 });
    expect((await markRead(person, { all: true })).json).toEqual({ unread: 0 });
    expect((await inbox(person)).notifications.every((n) => n.read)).toBe(true);
  });

  it('pages newest first with `before` and `next`', async () => {
    const person = (await w.fresh('viewer'))!;
    for (const text of ['one', 'two']) await comment(w.people.owner, w.spaces.members, { body: `@${person.handle} ${text}` });
    const first = await inbox(person, { limit: '2' });
    expect(first.notifications.map((n) => n.comment?.body)).toEqual([`@${person.handle} two`, `@${person.handle} one`]);
    expect(first.next).toEqual(expect.any(Number));
    const second = await inbox(person, { limit: '2', before: String(first.next) });
    expect(second.notifications.map((n) => n.kind)).toEqual(['invited']);
    expect(second).toMatchObject({ next: null, unread: 2 });
  });

  it("refuses both or neither of ids and all, and another person's notification is 404", async () => {
    const { owner, member } = w.people;
    expect((await markRead(member, {})).status).toBe(400);
    expect((await markRead(member, { all: true, ids: ['ntf_x'] })).status).toBe(400);
    const others = (await inbox(owner)).notifications[0];
    const answer = await markRead(member, { ids: [others.id] });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
    expect((await inbox(owner)).notifications[0].read).toBe(false);
    expect((await inbox(member)).notifications.map((n) => n.id)).not.toContain(others.id);
  });
});

describe('what a person can no longer see', () => {
  it('hides notifications about a workspace left, a space made private, or a comment deleted', async () => {
    const { owner } = w.people;
    const person = (await w.fresh('member'))!;
    const outsider = await w.signIn();
    const inMembers = await comment(owner, w.spaces.members, { body: `@${person.handle} in a members space` });
    const spare = await w.spareSpace('public');
    // The workspace holds these files already: nothing to upload.
    await w.must(200, 'POST', `/v1/spaces/${spare}/versions`, { as: owner, body: { files: manifest(), message: 'First' } });
    const inPublic = await comment(owner, spare, { body: `@${outsider.handle} in a public space` });
    const gone = await comment(owner, w.spaces.members, { body: `@${person.handle} soon deleted` });
    expect((await inbox(outsider)).notifications.map((n) => n.comment?.id)).toEqual([inPublic.id]);

    await w.must(204, 'DELETE', `/v1/comments/${gone.id}`, { as: owner });
    expect((await inbox(person)).notifications.map((n) => n.comment?.id)).toEqual([inMembers.id, undefined]);

    await w.must(200, 'PATCH', `/v1/spaces/${spare}`, { as: owner, body: { visibility: 'members' } });
    expect(await inbox(outsider)).toMatchObject({ notifications: [], unread: 0 });
    const hiddenId = (await db.notification.findFirstOrThrow({ where: { userId: outsider.id } })).id;
    expect((await markRead(outsider, { ids: [hiddenId] })).status).toBe(404);

    await w.must(204, 'PATCH', `/v1/workspaces/${w.slug}/members/${person.handle}`, { as: owner, body: { role: 'viewer' } });
    expect(await kinds(person)).toEqual(['role_changed', 'mention', 'invited']);
    await w.must(204, 'DELETE', `/v1/workspaces/${w.slug}/members/${person.handle}`, { as: owner });
    expect(await inbox(person)).toMatchObject({ notifications: [], unread: 0 });
  });
});

describe('keeping the inbox bounded, and mail', () => {
  it(`deletes read notifications after ${READ_KEPT_DAYS} days and keeps the newest ${INBOX_CAP}`, async () => {
    const person = (await w.fresh('viewer'))!;
    const old = new Date(Date.now() - (READ_KEPT_DAYS + 1) * 86_400_000);
    const filler = Array.from({ length: INBOX_CAP }, (_, i) => ({ id: `ntf_filler${person.id.slice(4, 14)}${String(i).padStart(4, '0')}`, userId: person.id, kind: 'app_live' as const, workspaceId: w.workspaceId, appId: w.app }));
    await db.notification.createMany({ data: filler });
    await db.notification.updateMany({ where: { userId: person.id, kind: 'invited' }, data: { readAt: old, createdAt: old } });
    await comment(w.people.owner, w.spaces.members, { body: `@${person.handle} the newest` });
    const left = await db.notification.findMany({ where: { userId: person.id }, orderBy: { seq: 'desc' }, select: { id: true, kind: true } });
    expect(left).toHaveLength(INBOX_CAP);
    expect(left[0].kind).toBe('mention');
    expect(left.map((n) => n.kind)).not.toContain('invited');
    expect(left.map((n) => n.id)).not.toContain(filler[0].id);
  });

  it('mails the kinds each person chose (mentions only at first)', async () => {
    const person = (await w.fresh('viewer'))!;
    await db.user.update({ where: { id: person.id }, data: { email: `${person.handle}@example.com` } });
    expect((await w.must(200, 'GET', '/v1/me/notification-settings', { as: person })).mailOn).toEqual(['mention']);
    const thread = await comment(person, w.spaces.members, { body: 'My thread' });
    const sent = async () => (await smtp.sent()).filter((m) => m.to.includes(`<${person.handle}@example.com>`));

    await comment(w.people.owner, w.spaces.members, { body: 'A reply', parentId: thread.id });
    await comment(w.people.owner, w.spaces.members, { body: `@${person.handle} a mention` });
    // Queued, not sent in the request: nothing arrives until a worker sends it.
    expect(smtp.mails.filter((m) => m.to.includes(`<${person.handle}@example.com>`))).toEqual([]);
    expect(await sent()).toHaveLength(1);
    expect((await sent())[0].data).toContain('mentioned you on docs/guide.md in members space');

    const saved = await w.must(200, 'PATCH', '/v1/me/notification-settings', { as: person, body: { mailOn: ['reply', 'reply', 'resolved'] } });
    expect(saved.mailOn).toEqual(['reply', 'resolved']);
    await comment(w.people.owner, w.spaces.members, { body: 'Another reply', parentId: thread.id });
    await comment(w.people.owner, w.spaces.members, { body: `@${person.handle} not mailed` });
    expect(await sent()).toHaveLength(2);
    expect((await sent())[1].data).toContain('replied to your thread');
    expect((await w.call('PATCH', '/v1/me/notification-settings', { as: person, body: { mailOn: ['everything'] } })).status).toBe(400);
  });
});
