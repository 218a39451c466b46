// Rooms and live spaces over the API: what the authorization matrix does not
// show (plan limits, invites, reports, Markdown, sources and their extraction).
import { beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { callerAs } from '@/lib/core/caller.ts';
import { actorForSecret } from '@/lib/auth/tokens.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { addPage } from '@/lib/rooms/document.ts';
import { roomPages } from '@/lib/rooms/rooms.ts';
import { enforcePlanLimits } from '../plan-limits.ts';
import { useFrontServer } from '../server.ts';
import { multipartFile, PNG, World, type Person } from '../http/world.ts';

const server = useFrontServer();
let w: World;

beforeAll(async () => {
  w = await new World(server.origin, 'ro').build();
}, 60_000);

describe('rooms', () => {
  it('refuses a room past the plan limit with 403 naming the plan that lifts it, per kind', async () => {
    enforcePlanLimits();
    const owner = await w.signIn();
    const slug = w.handle();
    await w.must(200, 'POST', '/v1/workspaces', { as: owner, body: { slug, name: 'Small' } });
    for (let i = 0; i < 3; i++) await w.must(200, 'POST', '/v1/rooms', { as: owner, body: { workspace: slug } });
    const refused = await w.call('POST', '/v1/rooms', { as: owner, body: { workspace: slug } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/Free plan's limit of 3 rooms.*Pro/);
    // Live spaces have their own limit.
    await w.must(200, 'POST', '/v1/live-spaces', { as: owner, body: { workspace: slug } });
  });

  it('answers a room only under its own prefix, and exports every page as Markdown', async () => {
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.member, body: { workspace: w.slug, template: 'brief', prompt: 'Launch the beta' } });
    // Its creator owns it, whatever their workspace role.
    expect(room).toMatchObject({ name: 'Launch the beta', role: 'owner', caps: { view: true, edit: true, manage: true }, template: 'brief', aiSuggest: false });
    expect((await w.call('GET', `/v1/live-spaces/${room.id}`, { as: w.people.owner })).status).toBe(404);
    const markdown = await w.call('GET', `/v1/rooms/${room.id}/markdown`, { as: w.people.viewer });
    expect(markdown.headers['content-type']).toMatch(/^text\/markdown/);
    expect(markdown.text).toContain('> Launch the beta');
    expect(markdown.text).toContain('## Open questions');
    expect((await w.call('POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, template: 'nope' } })).status).toBe(400);
  });

  it("lists a room's pages in order for the Build app picker, to whoever can see the room; 404 to anyone else", async () => {
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.member, body: { workspace: w.slug, name: 'Pages' } });
    const doc = new Y.Doc();
    const ids = [addPage(doc, 'Home', []), addPage(doc, 'Menu', [])];
    await db.room.update({ where: { id: room.id }, data: { roomDoc: Buffer.from(Y.encodeStateAsUpdate(doc)) } });
    doc.destroy();
    const as = async (person: Person) => callerAs((await actorForSecret(person.token))!);
    expect(await roomPages(await as(w.people.viewer), 'room', room.id)).toEqual([
      { id: ids[0], title: 'Home' },
      { id: ids[1], title: 'Menu' },
    ]);
    await expect(roomPages(await as(w.people.outsider), 'room', room.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(roomPages(await as(w.people.member), 'live', room.id)).rejects.toMatchObject({ code: 'not_found' });
    // The page a build names is the one it builds; an unknown one is 404 (the default, the first page, is covered in apps.test.ts).
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.member, body: { pageId: ids[1] } });
    expect(app.build.pageId).toBe(ids[1]);
    await w.must(404, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.outsider, body: { pageId: ids[1] } });
  });

  it('lets signed-in people with the link in as linkAccess says, and no further', async () => {
    const outsider = await w.signIn();
    const id = w.rooms.room;
    expect((await w.call('GET', `/v1/rooms/${id}`, { as: outsider })).status).toBe(404);
    await w.must(200, 'PATCH', `/v1/rooms/${id}`, { as: w.people.owner, body: { linkAccess: 'commenter' } });
    expect(await w.must(200, 'GET', `/v1/rooms/${id}`, { as: outsider })).toMatchObject({ role: 'commenter' });
    expect((await w.call('PATCH', `/v1/rooms/${id}`, { as: outsider, body: { name: 'Mine' } })).status).toBe(403);
    await w.must(200, 'PATCH', `/v1/rooms/${id}`, { as: w.people.owner, body: { linkAccess: 'none' } });
    expect((await w.call('GET', `/v1/rooms/${id}`, { as: outsider })).status).toBe(404);
  });

  it('makes single-use invite links, stored hashed, listed to managers only', async () => {
    const { invite } = await w.must(200, 'POST', `/v1/rooms/${w.rooms.room}/people`, { as: w.people.owner, body: { to: 'Ada@Example.com', role: 'commenter' } });
    expect(invite).toMatchObject({ email: 'ada@example.com', role: 'commenter', emailed: false });
    const token = invite.url.split('/').pop();
    expect(await db.roomInvite.count({ where: { hash: token } })).toBe(0);
    const managers = await w.must(200, 'GET', `/v1/rooms/${w.rooms.room}/people`, { as: w.people.admin });
    expect(managers.invites.map((i: { id: string }) => i.id)).toContain(invite.id);
    expect((await w.must(200, 'GET', `/v1/rooms/${w.rooms.room}/people`, { as: w.people.member })).invites).toEqual([]);
    const ada = await w.signIn();
    expect(await w.must(200, 'POST', '/v1/room-invites/accept', { as: ada, body: { token } })).toEqual({ roomId: w.rooms.room });
    expect(await w.must(200, 'GET', `/v1/rooms/${w.rooms.room}`, { as: ada })).toMatchObject({ role: 'commenter' });
    expect((await w.call('POST', '/v1/room-invites/accept', { as: await w.signIn(), body: { token } })).status).toBe(410);
    expect((await w.call('POST', '/v1/live-space-invites/accept', { as: ada, body: { token } })).status).toBe(404);
    // Leaving: oneself, without manage.
    await w.must(204, 'DELETE', `/v1/rooms/${w.rooms.room}/people/${ada.handle}`, { as: ada });
    expect((await w.call('GET', `/v1/rooms/${w.rooms.room}`, { as: ada })).status).toBe(404);
  });

  it('keeps a copy of a reported message after it is deleted; 404 for an unknown message', async () => {
    const messageId = await w.roomMessage('room', w.people.member);
    await w.must(204, 'POST', `/v1/rooms/${w.rooms.room}/messages/${messageId}/report`, { as: w.people.viewer, body: { reason: 'rude' } });
    await w.must(204, 'DELETE', `/v1/rooms/${w.rooms.room}/messages/${messageId}`, { as: w.people.member });
    expect(await db.roomMessageReport.findFirst({ where: { messageId }, select: { body: true, reason: true } })).toMatchObject({ reason: 'rude' });
    expect((await w.call('POST', `/v1/rooms/${w.rooms.room}/messages/${messageId}/report`, { as: w.people.viewer, body: {} })).status).toBe(404);
    // A message of another room is unknown here.
    const elsewhere = await w.roomMessage('live');
    expect((await w.call('DELETE', `/v1/rooms/${w.rooms.room}/messages/${elsewhere}`, { as: w.people.owner })).status).toBe(404);
  });

  it('exports and builds a room stored before the model guard with a page of the wrong type: that page is skipped, not a 500', async () => {
    const { id } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Broken once' } });
    const doc = new Y.Doc();
    Y.applyUpdate(doc, new Uint8Array((await db.room.findUniqueOrThrow({ where: { id }, select: { roomDoc: true } })).roomDoc!));
    const good = String(doc.getArray<Y.Map<string>>('pages').get(0).get('id'));
    const page = new Y.Map<string>();
    page.set('id', 'broken');
    page.set('title', 'Broken');
    doc.getArray('pages').push([page, 'a string where a page belongs' as never]);
    doc.getText('page:broken').insert(0, 'plain text where XML belongs');
    await db.room.update({ where: { id }, data: { roomDoc: Buffer.from(Y.encodeStateAsUpdate(doc)) } });
    const markdown = await w.call('GET', `/v1/rooms/${id}/markdown`, { as: w.people.owner });
    expect(markdown.status).toBe(200);
    expect(markdown.text).toContain('## Broken');
    expect(markdown.text).toContain('could not be read');
    expect((await w.call('POST', `/v1/rooms/${id}/build`, { as: w.people.owner, body: { pageId: 'broken' } })).status).toBe(409);
    expect((await w.call('POST', `/v1/rooms/${id}/build`, { as: w.people.owner, body: { pageId: good } })).status).toBe(200);
  });

  it('keeps non-ASCII file names of sources, sent as raw UTF-8 or as filename*', async () => {
    const upload = async (disposition: string) => {
      const boundary = 'atrium-names';
      const body = Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; ${disposition}\r\ncontent-type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`)]);
      return w.must(200, 'POST', `/v1/rooms/${w.rooms.room}/sources`, { as: w.people.member, raw: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    };
    expect((await upload('filename="résumé.txt"')).name).toBe('résumé.txt');
    expect((await upload("filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt")).name).toBe('日本語.txt');
  });

  it('extracts text from sources, marks what it cannot read unreadable, refuses files past MAX_SOURCE_BYTES, and serves bytes sandboxed', async () => {
    const upload = (name: string, type: string, content: string | Buffer) => {
      const { body, type: contentType } = multipartFile(name, type, content);
      return w.call('POST', `/v1/rooms/${w.rooms.room}/sources`, { as: w.people.viewer, raw: body, headers: { 'content-type': contentType } });
    };
    const html = await upload('page.html', 'text/html', '<html><body><h1>Title</h1><p>Some <b>bold</b> words.</p><script>alert(1)</script></body></html>');
    expect(html.json).toMatchObject({ status: 'ready', hiddenFromAi: false, uploadedBy: { handle: w.people.viewer.handle } });
    expect(html.json.summary).toContain('Some bold words.');
    const binary = await upload('blob.bin', 'application/octet-stream', Buffer.from([0, 1, 2, 255]));
    expect(binary.json).toMatchObject({ status: 'unreadable', extractedChars: 0, summary: null });
    const broken = await upload('fake.pdf', 'application/pdf', 'not a pdf');
    expect(broken.json.status).toBe('unreadable');
    const raw = await w.call('GET', `/v1/rooms/${w.rooms.room}/sources/${html.json.id}/raw`, { as: w.people.member });
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['content-security-policy']).toMatch(/sandbox/);
    const saved = config.maxSourceBytes;
    config.maxSourceBytes = 1000;
    try {
      expect((await upload('big.txt', 'text/plain', 'x'.repeat(5000))).status).toBe(413);
    } finally {
      config.maxSourceBytes = saved;
    }
    // Editors hide from AI; a commenter deletes only their own.
    expect((await w.must(200, 'PATCH', `/v1/rooms/${w.rooms.room}/sources/${html.json.id}`, { as: w.people.member, body: { hiddenFromAi: true } })).hiddenFromAi).toBe(true);
    expect((await w.call('DELETE', `/v1/rooms/${w.rooms.room}/sources/${w.sources.room}`, { as: w.people.viewer })).status).toBe(403);
    await w.must(204, 'DELETE', `/v1/rooms/${w.rooms.room}/sources/${html.json.id}`, { as: w.people.viewer });
  });

  it('stores live-space images and serves them while the space exists', async () => {
    const image = await w.must(200, 'POST', `/v1/live-spaces/${w.rooms.live}/images`, { as: w.people.member, raw: PNG, headers: { 'content-type': 'image/png' } });
    expect(image).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const got = await w.call('GET', new URL(image.url).pathname, { as: w.people.viewer });
    expect(got.status).toBe(200);
    expect((await w.call('POST', `/v1/live-spaces/${w.rooms.live}/images`, { as: w.people.member, raw: Buffer.from('<svg/>'), headers: { 'content-type': 'image/svg+xml' } })).status).toBe(400);
  });
});
