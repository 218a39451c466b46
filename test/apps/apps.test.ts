// Apps through the front server: building from a room, the lifecycle, the
// access rules of live apps at /a/<slug>/, owner links, end users, the plan's
// live-app limit, the AI builder against a local stand-in, and the audit log.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { liveAppUrl } from '@/lib/spaces/hosts.ts';
import { db } from '@/lib/db/client.ts';
import { enforcePlanLimits } from '../plan-limits.ts';
import { useFrontServer } from '../server.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { World, type Person } from '../http/world.ts';
import { MAX_ROWS_PER_TABLE } from '@/lib/apps/data.ts';
import { ROW_LIMITS } from '@/lib/apps/serving.ts';
import { systemWrite } from '@/lib/spacedb/database.ts';
import { bookClub, writeRoom } from './helpers.ts';

const server = useFrontServer();
let w: World;

beforeAll(async () => {
  w = await new World(server.origin, 'ap').build();
}, 60_000);

async function newRoom(content = bookClub(), kind: 'rooms' | 'live-spaces' = 'rooms') {
  const room = await w.must(200, 'POST', `/v1/${kind}`, { as: w.people.owner, body: { workspace: w.slug, name: 'Club room' } });
  const pageId = await writeRoom(room.id, content);
  return { roomId: room.id as string, pageId };
}

async function built(kind: 'rooms' | 'live-spaces' = 'rooms') {
  const { roomId, pageId } = await newRoom(bookClub(), kind);
  const { app } = await w.must(200, 'POST', `/v1/${kind}/${roomId}/build`, { as: w.people.member, body: {} });
  return { roomId, pageId, app };
}

/** A visit to the live app on its own host, with a cookie. */
async function visit(slug: string, path = '', options: { cookie?: string; method?: string; form?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  let body: Buffer | undefined;
  if (options.form !== undefined) {
    body = Buffer.from(options.form);
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  }
  if (body) headers['content-length'] = String(body.byteLength);
  return rawRequest(onPort(liveAppUrl(slug), server.origin), options.method ?? 'GET', `/${path}`, { headers, body });
}

const cookieOf = (answer: { headers: Record<string, string | string[] | undefined> }) => {
  const set = answer.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  return first ? first.split(';')[0] : undefined;
};

async function enterCode(slug: string, code: string) {
  const answer = await visit(slug, '', { method: 'POST', form: `code=${encodeURIComponent(code)}` });
  expect(answer.status).toBe(303);
  return cookieOf(answer)!;
}

describe('build', () => {
  it('turns the first page into a preview version of the app space, and counts on the room', async () => {
    const { roomId, app } = await built();
    expect(app).toMatchObject({ name: 'Book club', kind: 'web', status: 'preview', previewVersion: 1, liveVersion: null, liveUrl: null, access: 'code', joinCode: null, canManage: false });
    expect(app.build).toMatchObject({ status: 'succeeded', builder: 'outline', version: 1, error: null });
    const space = await w.must(200, 'GET', `/v1/spaces/${app.previewSpaceId}`, { as: w.people.owner });
    expect(space).toMatchObject({ kind: 'app', visibility: 'members', latestVersion: 1 });
    // Named after the app (the page's heading), not the page it was built from ("Club").
    expect(space.name).toBe('App: Book club');
    expect(app.slug).toMatch(/^book-club-[a-z0-9]{6}$/);
    const file = await w.must(200, 'GET', `/v1/spaces/${app.previewSpaceId}/files/books/index.html`, { as: w.people.owner });
    expect(file.content).toContain('<td>Dune</td>');
    // The pages' script asks `_api/session`; the preview answers "no session" instead of 404.
    const session = await w.must(200, 'GET', `/v1/spaces/${app.previewSpaceId}/files/_api/session`, { as: w.people.owner });
    expect(JSON.parse(session.content)).toBeNull();
    const room = await w.must(200, 'GET', `/v1/rooms/${roomId}`, { as: w.people.owner });
    expect(room.appCount).toBe(1);
  });

  it('rebuilds the preview of appId, and refuses an app of another room (404) and a page the room lacks (404)', async () => {
    const { roomId, pageId, app } = await built();
    await writeRoom(roomId, bookClub('Emma'));
    const again = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.member, body: { appId: app.id } });
    expect(again.app).toMatchObject({ id: app.id, previewVersion: 2, status: 'preview' });
    const other = await newRoom();
    await w.must(404, 'POST', `/v1/rooms/${other.roomId}/build`, { as: w.people.owner, body: { appId: app.id } });
    await w.must(404, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { pageId: `${pageId}x` } });
    // Viewers of the workspace are commenters in its rooms: no edit.
    await w.must(403, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.viewer, body: {} });
    await w.must(404, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.outsider, body: {} });
  });

  it('builds from live spaces too, and at room creation with build: true', async () => {
    const { app } = await built('live-spaces');
    expect(app.room.kind).toBe('live');
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, template: 'app', build: true } });
    expect(room.appCount).toBe(1);
    const { apps } = await w.must(200, 'GET', '/v1/apps', { as: w.people.owner, query: { room: room.id } });
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({ status: 'preview', name: 'App idea', canManage: true });
  });
});

describe('the AI builder (a local stand-in for an OpenAI-compatible endpoint)', () => {
  let standIn: Server;
  let answer: (body: any) => { status: number; content: string };
  const asked: any[] = [];
  beforeAll(async () => {
    standIn = createServer((request, response) => {
      let raw = '';
      request.on('data', (c) => (raw += c));
      request.on('end', () => {
        const body = JSON.parse(raw);
        asked.push({ path: request.url, auth: request.headers.authorization, body });
        const { status, content } = answer(body);
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    config.ai = { baseUrl: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', model: 'small' };
  });
  afterAll(async () => {
    config.ai = null;
    await new Promise((resolve) => standIn.close(resolve));
  });

  it('sends the page and the instructions, renders the answer, and leaves the preview alone when a rebuild fails', async () => {
    const spec = { name: 'Reading list', pages: [{ slug: '', title: 'Home', blocks: [{ type: 'table', table: 'books' }] }], tables: [{ name: 'books', title: 'Books', columns: ['Title'], rows: [['Dune']], guestWrites: true }] };
    answer = () => ({ status: 200, content: JSON.stringify(spec) });
    const { roomId } = await newRoom();
    const { app } = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { instructions: 'Make it a reading list' } });
    expect(app).toMatchObject({ name: 'Reading list', status: 'preview', previewVersion: 1 });
    expect(app.build).toMatchObject({ status: 'succeeded', builder: 'ai', instructions: 'Make it a reading list' });
    const last = asked.at(-1);
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-test');
    expect(JSON.stringify(last.body.messages)).toContain('Make it a reading list');
    expect(JSON.stringify(last.body.messages)).toContain('Dune');

    answer = () => ({ status: 500, content: '' });
    const failed = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { appId: app.id } });
    expect(failed.app).toMatchObject({ previewVersion: 1, status: 'preview' });
    expect(failed.app.build).toMatchObject({ status: 'failed', version: null });
    expect(failed.app.build.error).toContain('500');

    answer = () => ({ status: 200, content: '{"name": "no pages"}' });
    const bad = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { appId: app.id } });
    expect(bad.app.build.status).toBe('failed');
    expect(bad.app.previewVersion).toBe(1);
    const { versions } = await w.must(200, 'GET', `/v1/spaces/${app.previewSpaceId}/versions`, { as: w.people.owner });
    expect(versions).toHaveLength(1);
  });

  it('keeps a new app whose first build fails as a draft, which cannot go live', async () => {
    answer = () => ({ status: 200, content: 'not json' });
    const { roomId } = await newRoom();
    const { app } = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: {} });
    expect(app).toMatchObject({ status: 'draft', previewVersion: 0 });
    expect(app.build.error).toContain('not JSON');
    await w.must(409, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: {} });
  });
});

describe('lifecycle', () => {
  it('goes live once, promotes, rolls back, pauses and resumes, with deploy history and audit events', async () => {
    const { roomId, app } = await built();
    await w.must(403, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.member, body: {} });
    await w.must(409, 'POST', `/v1/apps/${app.id}/promote`, { as: w.people.owner });
    const live = await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: {} });
    expect(live).toMatchObject({ status: 'live', liveVersion: 1, access: 'code', canManage: true });
    expect(live.joinCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(live.liveUrl).toBe(liveAppUrl(app.slug));
    await w.must(409, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: {} });
    // Members see the app but not its join code.
    expect((await w.must(200, 'GET', `/v1/apps/${app.id}`, { as: w.people.member })).joinCode).toBeNull();

    await w.must(409, 'POST', `/v1/apps/${app.id}/promote`, { as: w.people.owner });
    await writeRoom(roomId, bookClub('Emma'));
    await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.member, body: { appId: app.id } });
    expect((await w.must(200, 'GET', `/v1/apps/${app.id}`, { as: w.people.owner })).liveVersion).toBe(1);
    const promoted = await w.must(200, 'POST', `/v1/apps/${app.id}/promote`, { as: w.people.owner });
    expect(promoted).toMatchObject({ liveVersion: 2, previewVersion: 2 });

    const rolled = await w.must(200, 'POST', `/v1/apps/${app.id}/rollback`, { as: w.people.owner, body: { deploy: 1 } });
    expect(rolled.liveVersion).toBe(1);
    await w.must(409, 'POST', `/v1/apps/${app.id}/rollback`, { as: w.people.owner, body: { deploy: 1 } });
    await w.must(404, 'POST', `/v1/apps/${app.id}/rollback`, { as: w.people.owner, body: { deploy: 9 } });
    const { deploys } = await w.must(200, 'GET', `/v1/apps/${app.id}/deploys`, { as: w.people.viewer });
    expect(deploys.map((d: any) => [d.deploy, d.kind, d.version, d.current])).toEqual([
      [3, 'rollback', 1, true],
      [2, 'promote', 2, false],
      [1, 'live', 1, false],
    ]);
    expect(deploys[0].actor.handle).toBe(w.people.owner.handle);
    // What each deploy changed against the one before: the first adds every file; the
    // promotion brings the rebuilt pages (a book more), the rollback takes them back.
    const [rollback, promote, first] = deploys.map((d: any) => d.changes);
    expect(first).toMatchObject({ changed: [], removed: [], unchanged: 0 });
    expect(first.added).toContain('index.html');
    expect(promote.changed.length).toBeGreaterThan(0);
    expect(promote.unchanged).toBeGreaterThan(0);
    expect(rollback).toEqual({ added: promote.removed, changed: promote.changed, removed: promote.added, unchanged: promote.unchanged });

    const paused = await w.must(200, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.admin, body: { paused: true } });
    expect(paused.status).toBe('paused');
    const page = await visit(app.slug);
    expect(page.status).toBe(503);
    expect(page.text).toContain('paused');
    expect((await w.must(200, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.owner, body: { paused: false, name: 'The club' } })).status).toBe('live');
    expect((await w.must(200, 'GET', `/v1/apps/${app.id}`, { as: w.people.owner })).name).toBe('The club');

    const { events } = await w.must(200, 'GET', `/v1/workspaces/${w.slug}/audit`, { as: w.people.owner });
    const mine = events.filter((e: any) => e.target?.id === app.id).map((e: any) => e.action);
    expect(mine).toEqual(['app.resumed', 'app.paused', 'app.rolled_back', 'app.promoted', 'app.went_live']);
  });

  it('pauses only a live app (409) and renews a join code only under code access (409)', async () => {
    const { app } = await built();
    await w.must(409, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.owner, body: { paused: true } });
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    await w.must(409, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.owner, body: { newJoinCode: true } });
  });

  it('refuses going live past the plan limit of live apps (403); paused apps count, deleted ones do not', async () => {
    const slug = w.handle();
    await w.must(200, 'POST', '/v1/workspaces', { as: w.people.owner, body: { slug, name: 'Small team' } });
    enforcePlanLimits({ free: { liveApps: 1 } });
    const make = async () => {
      const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: slug } });
      await writeRoom(room.id, bookClub());
      return (await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} })).app;
    };
    const first = await make();
    const second = await make();
    await w.must(200, 'POST', `/v1/apps/${first.id}/live`, { as: w.people.owner, body: {} });
    await w.must(200, 'PATCH', `/v1/apps/${first.id}`, { as: w.people.owner, body: { paused: true } });
    const refused = await w.call('POST', `/v1/apps/${second.id}/live`, { as: w.people.owner, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('forbidden');
    await w.must(204, 'DELETE', `/v1/apps/${first.id}`, { as: w.people.owner });
    await w.must(200, 'POST', `/v1/apps/${second.id}/live`, { as: w.people.owner, body: {} });
  });

  it('deletes an app with its space and live address', async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    await w.must(403, 'DELETE', `/v1/apps/${app.id}`, { as: w.people.member });
    await w.must(204, 'DELETE', `/v1/apps/${app.id}`, { as: w.people.owner });
    await w.must(404, 'GET', `/v1/apps/${app.id}`, { as: w.people.owner });
    await w.must(404, 'GET', `/v1/spaces/${app.previewSpaceId}`, { as: w.people.owner });
    expect((await visit(app.slug)).status).toBe(404);
  });

  it('lists the apps of rooms the caller can view, by workspace and room', async () => {
    const { roomId, app } = await built();
    const byRoom = await w.must(200, 'GET', '/v1/apps', { as: w.people.viewer, query: { room: roomId } });
    expect(byRoom.apps.map((a: any) => a.id)).toEqual([app.id]);
    const byWorkspace = await w.must(200, 'GET', '/v1/apps', { as: w.people.member, query: { workspace: w.slug } });
    expect(byWorkspace.apps.map((a: any) => a.id)).toContain(app.id);
    expect((await w.must(200, 'GET', '/v1/apps', { as: w.people.outsider })).apps).toEqual([]);
    await w.must(404, 'GET', `/v1/apps/${app.id}`, { as: w.people.outsider });
  });
});

describe('live apps at /a/<slug>/', () => {
  it('asks for the join code, lets in who enters it, serves the data API, and shuts out old codes when renewed', async () => {
    const { app } = await built();
    const live = await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'code', copyData: true } });
    expect((await visit(app.slug, '', { method: 'GET' })).status).toBe(401);
    expect((await visit(app.slug, '_api/tables/books')).status).toBe(401);
    const wrong = await visit(app.slug, '', { method: 'POST', form: 'code=WRONG123' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not right');
    const cookie = await enterCode(app.slug, live.joinCode.toLowerCase());
    const home = await visit(app.slug, '', { cookie });
    expect(home.status).toBe(200);
    expect(home.text).toContain('Book club');
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await visit(app.slug, 'books', { cookie })).status).toBe(308);
    expect((await visit(app.slug, 'books/', { cookie })).text).toContain('Dune');

    // copyData: the preview's rows are the live data.
    const books = await visit(app.slug, '_api/tables/books', { cookie });
    expect(books.json).toEqual({ columns: ['Title', 'Author'], rows: [{ Title: 'Dune', Author: 'Herbert' }] });
    // A table under a "(form)" heading takes visitors' rows; the others do not.
    expect((await visit(app.slug, '_api/tables/sign_up', { cookie, method: 'POST', json: { values: { Name: 'Grace', Email: 'g@example.com' } } })).status).toBe(201);
    expect((await visit(app.slug, '_api/tables/sign_up', { cookie })).json.rows).toEqual([
      { Name: 'Ada', Email: 'ada@example.com' },
      { Name: 'Grace', Email: 'g@example.com' },
    ]);
    expect((await visit(app.slug, '_api/tables/books', { cookie, method: 'POST', json: { values: { Title: 'X' } } })).status).toBe(403);
    expect((await visit(app.slug, '_api/tables/sign_up', { cookie, method: 'POST', json: { values: { Nope: 'x' } } })).status).toBe(400);
    expect((await visit(app.slug, '_api/tables/nothing', { cookie })).status).toBe(404);

    const { users } = await w.must(200, 'GET', `/v1/apps/${app.id}/users`, { as: w.people.owner });
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ via: 'code', user: null });
    await w.must(403, 'GET', `/v1/apps/${app.id}/users`, { as: w.people.member });

    const renewed = await w.must(200, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.owner, body: { newJoinCode: true } });
    expect(renewed.joinCode).not.toBe(live.joinCode);
    expect((await visit(app.slug, '', { cookie })).status).toBe(401);
    expect((await visit(app.slug, '', { method: 'POST', form: `code=${live.joinCode}` })).status).toBe(401);
    expect((await visit(app.slug, '', { cookie: await enterCode(app.slug, renewed.joinCode) })).status).toBe(200);
  });

  it('takes form rows whose columns are named like Object properties (constructor, __proto__)', async () => {
    const { roomId } = await newRoom([
      { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Odd names' }] },
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Entries (form)' }] },
      { type: 'paragraph', content: [{ type: 'text', text: '| constructor | __proto__ | toString |' }] },
      { type: 'paragraph', content: [{ type: 'text', text: '| --- | --- | --- |' }] },
    ]);
    const { app } = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: {} });
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    // Only the first column is required: the others are absent, and must not be read from Object.prototype.
    expect((await visit(app.slug, '_api/tables/entries', { method: 'POST', json: { values: { constructor: 'first' } } })).status).toBe(201);
    const all = JSON.parse('{"values":{"constructor":"a","__proto__":"b","toString":"c"}}');
    const added = await visit(app.slug, '_api/tables/entries', { method: 'POST', json: all });
    expect(added.status).toBe(201);
    expect(added.json.row).toEqual(JSON.parse('{"constructor":"a","__proto__":"b","toString":"c"}'));
    const { rows } = (await visit(app.slug, '_api/tables/entries')).json;
    expect(rows).toEqual([JSON.parse('{"constructor":"first","__proto__":"","toString":""}'), JSON.parse('{"constructor":"a","__proto__":"b","toString":"c"}')]);
  });

  it('limits visitors’ rows per address (a burst gets exactly the limit), and tells the owners once a form table is full', async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    const post = (name: string) => visit(app.slug, '_api/tables/sign_up', { method: 'POST', json: { values: { Name: name } } });
    const burst = await Promise.all(Array.from({ length: ROW_LIMITS.perAddress + 10 }, (_, i) => post(`Flood ${i}`)));
    expect(burst.filter((a) => a.status === 201)).toHaveLength(ROW_LIMITS.perAddress);
    expect(burst.filter((a) => a.status === 429)).toHaveLength(10);
    expect(burst.find((a) => a.status === 429)!.json.error.message).toMatch(/at most 20 a minute/);

    // Filled to one short of the cap: the next row fills it and tells the owners, the one after is refused.
    const { liveSpaceId } = await db.app.findUniqueOrThrow({ where: { id: app.id }, select: { liveSpaceId: true } });
    const fill = MAX_ROWS_PER_TABLE - 1 - ROW_LIMITS.perAddress;
    await systemWrite(liveSpaceId!, `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${fill}) INSERT INTO "sign_up" ("Name", "Email") SELECT 'row ' || x, '' FROM n`, [], { userId: null, guestName: null, kind: 'member', name: 'test fill' });
    const link = await w.must(200, 'POST', `/v1/apps/${app.id}/owner-link`, { as: w.people.owner });
    const owner = cookieOf(await rawRequest(onPort(link.url, server.origin), 'GET', new URL(link.url).pathname + new URL(link.url).search, {}));
    const last = await visit(app.slug, '_api/tables/sign_up', { cookie: owner, method: 'POST', json: { values: { Name: 'Last' } } });
    expect(last.status).toBe(201);
    const refused = await visit(app.slug, '_api/tables/sign_up', { cookie: owner, method: 'POST', json: { values: { Name: 'One too many' } } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/full .*owner has been told/);
    const { events } = await w.must(200, 'GET', `/v1/workspaces/${w.slug}/audit`, { as: w.people.owner });
    expect(events.filter((e: any) => e.action === 'app.table_full' && e.target.id === app.id)).toHaveLength(1);
  }, 60_000);

  it('without copyData starts the live tables empty', async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    expect((await visit(app.slug, '_api/tables/books')).json.rows).toEqual([]);
    expect((await visit(app.slug)).status).toBe(200);
  });

  it('opens a private app to people of the room and workspace only, handed over from the app origin by their session', async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'private' } });
    const session = (p: Person) => `atrium_session=${p.web}`;
    // The app's host never reads the session: it sends visitors to the app's origin.
    const anonymous = await visit(app.slug, '', { cookie: session(w.people.member) });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe(`${config.publicUrl}/a/${app.slug}/`);
    const atApp = (p: Person | null) => rawRequest(server.origin, 'GET', `/a/${app.slug}/`, { headers: p ? { cookie: session(p) } : {} });
    expect((await atApp(null)).headers.location).toContain('/signin?next=');
    expect((await atApp(w.people.outsider)).status).toBe(404);
    const handOff = await atApp(w.people.member);
    expect(handOff.status).toBe(303);
    const entry = new URL(handOff.headers.location as string);
    expect(entry.origin).toBe(new URL(liveAppUrl(app.slug)).origin);
    const member = await rawRequest(onPort(entry.href, server.origin), 'GET', entry.pathname + entry.search);
    expect(member.status).toBe(303);
    expect(member.headers['set-cookie']?.[0]).toMatch(/^__Host-atrium_app=[\w.-]+; Path=\/; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age=43200$/);
    expect((await visit(app.slug, '', { cookie: cookieOf(member) })).status).toBe(200);
    const { users } = await w.must(200, 'GET', `/v1/apps/${app.id}/users`, { as: w.people.owner });
    expect(users.map((u: any) => [u.user?.handle, u.via])).toEqual([[w.people.member.handle, 'sign-in']]);
    // Access changes send everyone through the rules again.
    await w.must(200, 'PATCH', `/v1/apps/${app.id}`, { as: w.people.owner, body: { access: 'code' } });
    expect((await visit(app.slug, '', { cookie: cookieOf(member) })).status).toBe(401);
  });

  it('gives editors a single-use owner link valid 10 minutes that opens the app as its administrator', async () => {
    const { app } = await built();
    await w.must(409, 'POST', `/v1/apps/${app.id}/owner-link`, { as: w.people.member });
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: {} });
    await w.must(403, 'POST', `/v1/apps/${app.id}/owner-link`, { as: w.people.viewer });
    const before = Date.now();
    const link = await w.must(200, 'POST', `/v1/apps/${app.id}/owner-link`, { as: w.people.member });
    expect(link.expiresAt - before).toBeGreaterThan(9.9 * 60_000);
    expect(link.expiresAt - before).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const path = new URL(link.url).pathname + new URL(link.url).search;
    const host = onPort(link.url, server.origin);
    expect(host).toBe(onPort(liveAppUrl(app.slug), server.origin));
    const first = await rawRequest(host, 'GET', path, {});
    expect(first.status).toBe(303);
    const cookie = cookieOf(first)!;
    expect(cookie).toBeTruthy();
    expect((await visit(app.slug, '_api/session', { cookie })).json).toEqual({ admin: true, label: 'Administrator' });
    // The administrator may add rows to every table.
    expect((await visit(app.slug, '_api/tables/books', { cookie, method: 'POST', json: { values: { Title: 'Emma', Author: 'Austen' } } })).status).toBe(201);
    const second = await rawRequest(host, 'GET', path, {});
    expect(second.status).toBe(303);
    expect(cookieOf(second)).toBeUndefined();
    // A link with its signature changed opens nothing.
    const forged = await rawRequest(host, 'GET', path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), {});
    expect(cookieOf(forged)).toBeUndefined();
    const { users } = await w.must(200, 'GET', `/v1/apps/${app.id}/users`, { as: w.people.owner });
    expect(users.map((u: any) => [u.user?.handle, u.via])).toEqual([[w.people.member.handle, 'owner-link']]);
  });

  it("ends the owner-link administrator's cookie once they may no longer edit the app's room (removed from the workspace)", async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: {} });
    const member = (await w.fresh('member'))!;
    const link = await w.must(200, 'POST', `/v1/apps/${app.id}/owner-link`, { as: member });
    const entry = await rawRequest(onPort(link.url, server.origin), 'GET', new URL(link.url).pathname + new URL(link.url).search, {});
    const cookie = cookieOf(entry)!;
    expect((await visit(app.slug, '_api/session', { cookie })).json).toEqual({ admin: true, label: 'Administrator' });
    await w.must(204, 'DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: w.people.owner });
    // The cookie is dropped: the app answers as to anyone without one (a join code is asked for).
    expect((await visit(app.slug, '_api/session', { cookie })).status).toBe(401);
    expect((await visit(app.slug, '_api/tables/books', { cookie, method: 'POST', json: { values: { Title: 'Emma' } } })).status).toBe(401);
  });

  it('tells each caller what they may do with the app: a viewer neither rebuilds nor takes an owner link', async () => {
    const { app } = await built();
    const as = async (person: Person) => (await w.must(200, 'GET', `/v1/apps/${app.id}`, { as: person })) as { canEdit: boolean; canManage: boolean };
    expect(await as(w.people.viewer)).toMatchObject({ canEdit: false, canManage: false });
    expect(await as(w.people.member)).toMatchObject({ canEdit: true, canManage: false });
    expect(await as(w.people.owner)).toMatchObject({ canEdit: true, canManage: true });
    // What the flags say is what the API does.
    await w.must(403, 'POST', `/v1/rooms/${app.room.id}/build`, { as: w.people.viewer, body: { appId: app.id } });
    await w.must(200, 'POST', `/v1/rooms/${app.room.id}/build`, { as: w.people.member, body: { appId: app.id } });
  });

  it('answers 404 for an app that is not live', async () => {
    const { app } = await built();
    expect((await visit(app.slug)).status).toBe(404);
    expect((await visit('no-such-app')).status).toBe(404);
    expect(await db.appEndUser.count({ where: { appId: app.id } })).toBe(0);
  });
});
