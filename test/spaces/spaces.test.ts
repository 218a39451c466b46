import { describe, expect, it, vi } from 'vitest';
import { GET as headRoute } from '@/app/v1/spaces/[id]/head/route.ts';
import { GET as getRoute, PATCH as patchRoute } from '@/app/v1/spaces/[id]/route.ts';
import { POST as unlockRoute } from '@/app/v1/spaces/[id]/unlock/route.ts';
import { GET as versionsRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { POST as viewsRoute } from '@/app/v1/spaces/[id]/views/route.ts';
import { GET as visitorsRoute } from '@/app/v1/spaces/[id]/visitors/route.ts';
import { GET as listRoute, POST as createRoute } from '@/app/v1/spaces/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { flushViews } from '@/lib/spaces/visitors.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { permissionsFor, type SpaceForAccess } from '@/lib/access/spaces.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace, push } from './fixtures.ts';

let seq = 0;
async function person(prefix: string) {
  return signIn(`${prefix}-${++seq}`);
}

/** A workspace "team-N" owned by a new person, with extra members by role. */
async function team(roles: Record<string, 'owner' | 'admin' | 'member' | 'viewer'> = {}) {
  const owner = await person('owner');
  const slug = `team-${++seq}`;
  const workspace = await db.workspace.create({ data: { id: `ws_${slug}`, slug, name: slug } });
  await db.membership.create({ data: { workspaceId: workspace.id, userId: owner.user.id, role: 'owner', status: 'accepted' } });
  const people: Record<string, Awaited<ReturnType<typeof signIn>>> = {};
  for (const [name, role] of Object.entries(roles)) {
    people[name] = await person(name);
    await db.membership.create({ data: { workspaceId: workspace.id, userId: people[name].user.id, role, status: 'accepted' } });
  }
  return { owner, slug, workspace, people };
}

const get = (id: string, token?: string, headers?: Record<string, string>) => call(getRoute, 'GET', `/v1/spaces/${id}`, { token, headers, params: { id } });
const patch = (id: string, token: string, body: unknown) => call(patchRoute, 'PATCH', `/v1/spaces/${id}`, { token, body, params: { id } });
const unlock = (id: string, password: string, peer = '10.0.0.1') =>
  call(unlockRoute, 'POST', `/v1/spaces/${id}/unlock`, { body: { password }, params: { id }, headers: { [PEER_HEADER]: peer } });

describe('access rules', () => {
  const space = (extra: Partial<SpaceForAccess> = {}): SpaceForAccess => ({ id: 'sp', workspaceId: 'ws', visibility: 'public', guestComments: false, passwordHash: null, ...extra });
  const standing = (extra = {}) => ({ role: null, listedViewer: false, unlocked: false, ...extra });

  it('follows the capabilities of the role in the workspace (lib/access)', () => {
    expect(permissionsFor(space(), standing({ role: 'owner' }))).toEqual({ view: true, comment: true, push: true, manage: true, admin: true });
    expect(permissionsFor(space(), standing({ role: 'admin' }))).toEqual({ view: true, comment: true, push: true, manage: true, admin: true });
    expect(permissionsFor(space(), standing({ role: 'member' }))).toEqual({ view: true, comment: true, push: true, manage: false, admin: false });
    expect(permissionsFor(space({ visibility: 'members' }), standing({ role: 'viewer' }))).toEqual({ view: true, comment: true, push: false, manage: false, admin: false });
  });

  it('lets outsiders view public spaces, listed viewers members-only ones, and guests comment only when allowed', () => {
    expect(permissionsFor(space(), standing())).toEqual({ view: true, comment: false, push: false, manage: false, admin: false });
    expect(permissionsFor(space({ guestComments: true }), standing()).comment).toBe(true);
    expect(permissionsFor(space({ visibility: 'members' }), standing()).view).toBe(false);
    expect(permissionsFor(space({ visibility: 'members' }), standing({ listedViewer: true })).view).toBe(true);
  });

  it('asks outsiders for the password of a protected public space, but not members or listed viewers', () => {
    const locked = space({ passwordHash: 'scrypt$x$y' });
    expect(permissionsFor(locked, standing()).view).toBe(false);
    expect(permissionsFor(locked, standing({ unlocked: true })).view).toBe(true);
    expect(permissionsFor(locked, standing({ listedViewer: true })).view).toBe(true);
    expect(permissionsFor(locked, standing({ role: 'viewer' })).view).toBe(true);
  });
});

describe('POST /v1/spaces and GET /v1/spaces', () => {
  it('creates a space in the personal workspace and returns the full record', async () => {
    const { token, user } = await signIn('creator');
    const { status, json } = await call(createRoute, 'POST', '/v1/spaces', { token, body: { workspace: 'creator', name: 'Docs' } });
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^sp_[a-z0-9]{21}$/),
      name: 'Docs',
      workspace: { id: expect.any(String), slug: 'creator', name: 'creator' },
      visibility: 'public',
      guestComments: false,
      guestWrites: false,
      viewers: { users: [] },
      passwordProtected: false,
      latestVersion: 0,
      path: `/spaces/${json.id}`,
      url: `http://${json.id.replace('_', '-')}.localhost:3000/`,
      shareUrl: `http://${json.id.replace('_', '-')}.localhost:3000/`,
      kind: 'repo',
      permissions: { view: true, comment: true, push: true, manage: true, admin: true },
      createdAt: expect.any(Number),
    });
    expect(user.id).toBeTruthy();
  });

  it('answers 404 for a workspace the caller is not in, 403 for a workspace viewer, 400 for a bad name, 401 signed out', async () => {
    const { slug, people } = await team({ watcher: 'viewer' });
    const stranger = await person('stranger');
    const create = (token: string, body: unknown) => call(createRoute, 'POST', '/v1/spaces', { token, body });
    expect((await create(stranger.token, { workspace: slug, name: 'x' })).status).toBe(404);
    expect((await create(stranger.token, { workspace: 'no-such-workspace', name: 'x' })).status).toBe(404);
    expect((await create(people.watcher.token, { workspace: slug, name: 'x' })).status).toBe(403);
    expect((await create(stranger.token, { workspace: stranger.user.handle, name: '' })).status).toBe(400);
    expect((await create('', { workspace: slug, name: 'x' })).status).toBe(401);
  });

  it("lists a workspace's spaces by what the caller can see, and without a workspace what they can push to", async () => {
    const { owner, slug, people } = await team({ dev: 'member' });
    const open = await makeSpace(owner.token, slug, { name: 'Open' });
    const closed = await makeSpace(owner.token, slug, { name: 'Closed', visibility: 'members' });
    const shared = await makeSpace(owner.token, slug, { name: 'Shared', visibility: 'members' });
    const guest = await person('guest');
    await patch(shared.id, owner.token, { viewers: { handles: [guest.user.handle] } });
    const list = async (token: string, workspace?: string) =>
      (await call(listRoute, 'GET', `/v1/spaces${workspace ? `?workspace=${workspace}` : ''}`, { token })).json.spaces.map((s: { name: string }) => s.name);
    expect(await list(people.dev.token, slug)).toEqual(['Shared', 'Closed', 'Open']);
    expect(await list(guest.token, slug)).toEqual(['Shared', 'Open']);
    expect(await list(guest.token, 'no-such-workspace')).toEqual([]);
    expect(await list(guest.token)).toEqual([]);
    expect(await list(people.dev.token)).toEqual(['Shared', 'Closed', 'Open']);
    expect(closed.id).toBeTruthy();
    expect(open.id).toBeTruthy();
  });
});

describe('GET and PATCH /v1/spaces/{id}', () => {
  it('shows a public space to anyone, and a members-only one only to members and listed viewers (404 otherwise)', async () => {
    const { owner, slug, people } = await team({ watcher: 'viewer' });
    const open = await makeSpace(owner.token, slug);
    const closed = await makeSpace(owner.token, slug, { visibility: 'members' });
    const anonymous = await get(open.id);
    expect(anonymous.status).toBe(200);
    expect(anonymous.json.permissions).toEqual({ view: true, comment: false, push: false, manage: false, admin: false });
    expect((await get(closed.id)).status).toBe(404);
    const stranger = await person('stranger');
    expect((await get(closed.id, stranger.token)).status).toBe(404);
    expect((await get(closed.id, people.watcher.token)).json.permissions).toEqual({ view: true, comment: true, push: false, manage: false, admin: false });
    await patch(closed.id, owner.token, { viewers: { handles: [stranger.user.handle] } });
    expect((await get(closed.id, stranger.token)).status).toBe(200);
  });

  it('lets admins change name, visibility, guest rights, viewers and password; others get 403 or 404', async () => {
    const { owner, slug, people } = await team({ dev: 'member', boss: 'admin' });
    const space = await makeSpace(owner.token, slug);
    const guest = await person('guest');
    const changed = await patch(space.id, people.boss.token, {
      name: 'Renamed',
      visibility: 'members',
      guestComments: true,
      guestWrites: true,
      viewers: { handles: [guest.user.handle] },
      password: 'open sesame',
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ name: 'Renamed', visibility: 'members', guestComments: true, guestWrites: true, passwordProtected: true, shareUrl: null });
    expect(changed.json.viewers.users).toEqual([guest.user]);
    // Viewers are listed only to people who can push.
    expect((await get(space.id, guest.token)).json.viewers).toEqual({ users: [] });
    expect((await patch(space.id, people.dev.token, { name: 'x' })).status).toBe(403);
    expect((await patch(space.id, guest.token, { name: 'x' })).status).toBe(403);
    const stranger = await person('stranger');
    expect((await patch(space.id, stranger.token, { name: 'x' })).status).toBe(404);
    const unknown = await patch(space.id, owner.token, { viewers: { handles: ['no-such-person'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toContain('@no-such-person');
    expect((await patch(space.id, owner.token, { visibility: 'everyone' })).status).toBe(400);
    const cleared = await patch(space.id, owner.token, { password: null, viewers: { handles: [] } });
    expect(cleared.json.passwordProtected).toBe(false);
    expect(cleared.json.viewers.users).toEqual([]);
    expect((await patch(space.id, '', { name: 'x' })).status).toBe(401);
  });
});

describe('password-protected spaces', () => {
  it('shows the record but asks for the password (401) before content, then opens with the unlock token', async () => {
    const { token } = await signIn('locker');
    const space = await makeSpace(token, 'locker');
    await push(token, space.id, { 'index.html': 'secret' });
    await patch(space.id, token, { password: 'hunter22' });
    const record = await get(space.id);
    expect(record.status).toBe(200);
    expect(record.json.passwordProtected).toBe(true);
    expect(record.json.permissions.view).toBe(false);
    const versions = (headers?: Record<string, string>) => call(versionsRoute, 'GET', '', { headers, params: { id: space.id } });
    expect((await versions()).status).toBe(401);
    expect((await unlock(space.id, 'wrong')).status).toBe(401);
    const opened = await unlock(space.id, 'hunter22');
    expect(opened.status).toBe(200);
    expect(opened.json.token).toMatch(/^atrp_/);
    expect(opened.json.exp - Date.now()).toBeGreaterThan(11 * 60 * 60 * 1000);
    expect((await versions({ 'x-space-token': opened.json.token })).status).toBe(200);
    expect((await get(space.id, undefined, { 'x-space-token': opened.json.token })).json.permissions.view).toBe(true);
    // A new password voids every unlock token.
    await patch(space.id, token, { password: 'another one' });
    expect((await versions({ 'x-space-token': opened.json.token })).status).toBe(401);
    // The workspace's own people never need it.
    expect((await versions({ authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('answers 429 after 10 wrong passwords from one address, even for the right one', async () => {
    const { token } = await signIn('guarded');
    const space = await makeSpace(token, 'guarded');
    await patch(space.id, token, { password: 'right' });
    for (let i = 0; i < 10; i++) expect((await unlock(space.id, `wrong ${i}`, '10.0.0.9')).status).toBe(401);
    const blocked = await unlock(space.id, 'right', '10.0.0.9');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await unlock(space.id, 'right', '10.0.0.10')).status).toBe(200);
  });

  it('answers 400 for a space without a password and 404 for one the caller cannot see', async () => {
    const { token } = await signIn('unlocked-already');
    const space = await makeSpace(token, 'unlocked-already');
    expect((await unlock(space.id, 'x')).status).toBe(400);
    const hidden = await makeSpace(token, 'unlocked-already', { visibility: 'members' });
    await patch(hidden.id, token, { password: 'x' });
    expect((await unlock(hidden.id, 'x')).status).toBe(404);
  });
});

describe('head, views and visitors', () => {
  it('summarises the latest version, comments and uploads', async () => {
    const { token } = await signIn('header');
    const space = await makeSpace(token, 'header');
    await push(token, space.id, { 'a.txt': 'a' });
    const { status, json } = await call(headRoute, 'GET', '', { params: { id: space.id } });
    expect(status).toBe(200);
    expect(json).toEqual({ latestVersion: 1, commentsUpdatedAt: expect.any(Number), uploads: 0, uploadsUpdatedAt: 0 });
    const hidden = await makeSpace(token, 'header', { visibility: 'members' });
    expect((await call(headRoute, 'GET', '', { params: { id: hidden.id } })).status).toBe(404);
  });

  it('counts views of visitors but not of people who can push, and reports them to pushers only', async () => {
    const { owner, slug, people } = await team({ dev: 'member', watcher: 'viewer' });
    const space = await makeSpace(owner.token, slug);
    await push(owner.token, space.id, { 'index.html': 'home', 'about.html': 'about' });
    const view = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
      call(viewsRoute, 'POST', '', { token, body, params: { id: space.id }, headers: { 'user-agent': 'test', ...headers } });
    const trust = config.trustProxy;
    config.trustProxy = true;
    try {
      expect((await view(undefined, { path: '/', referrer: 'https://news.example.com/item?id=1' }, { 'x-forwarded-for': '192.0.2.1', 'cf-ipcountry': 'FR' })).status).toBe(204);
      expect((await view(undefined, { path: '/about.html', version: 1 }, { 'x-forwarded-for': '192.0.2.1', 'cf-ipcountry': 'FR' })).status).toBe(204);
      expect((await view(undefined, { path: '/' }, { 'x-forwarded-for': '192.0.2.2' })).status).toBe(204);
    } finally {
      config.trustProxy = trust;
    }
    expect((await view(people.watcher.token, { path: '/' })).status).toBe(204);
    expect((await view(people.dev.token, { path: '/' })).status).toBe(204);
    expect((await view(owner.token, { path: '/' })).status).toBe(204);
    expect((await view(undefined, {})).status).toBe(400);

    const stats = await call(visitorsRoute, 'GET', '', { token: people.dev.token, params: { id: space.id } });
    expect(stats.status).toBe(200);
    const s = stats.json;
    expect(s.days).toBe(30);
    expect(s.daily).toHaveLength(30);
    expect(s.daily.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), views: 4, visitors: 3 });
    expect([s.views, s.visitors, s.signedIn]).toEqual([4, 3, 1]);
    expect(s.countries).toEqual([{ label: 'FR', views: 2 }, { label: 'Unknown', views: 2 }]);
    expect(s.referrers).toContainEqual({ label: 'news.example.com', views: 1 });
    expect(s.pages).toEqual([{ label: '/', views: 3 }, { label: '/about.html', views: 1 }]);
    expect(s.people).toEqual([{ user: people.watcher.user, views: 1, lastSeenAt: expect.any(Number) }]);
    expect(s.recent).toHaveLength(4);
    expect(s.recent[0].user).toEqual(people.watcher.user);
    // No address is kept.
    const rows = await db.spaceView.findMany({ where: { spaceId: space.id } });
    expect(JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? Number(v) : v))).not.toContain('192.0.2');

    expect((await call(visitorsRoute, 'GET', '', { token: people.watcher.token, params: { id: space.id } })).status).toBe(403);
    expect((await call(visitorsRoute, 'GET', '?days=91', { token: owner.token, params: { id: space.id } })).status).toBe(400);
    expect((await call(visitorsRoute, 'GET', '?days=7', { token: owner.token, params: { id: space.id } })).json.daily).toHaveLength(7);
    expect((await call(visitorsRoute, 'GET', '', { params: { id: space.id } })).status).toBe(401);
  });

  it('prunes views older than 90 days and the old salts when a new day begins', async () => {
    const { token } = await signIn('pruner');
    const space = await makeSpace(token, 'pruner');
    await push(token, space.id, { 'index.html': 'home' });
    const day = 86_400_000;
    const old = await db.spaceView.create({ data: { spaceId: space.id, at: new Date(Date.now() - 90 * day), path: '/', visitor: 'x' } });
    const kept = await db.spaceView.create({ data: { spaceId: space.id, at: new Date(Date.now() - 80 * day), path: '/', visitor: 'y' } });
    const view = () => call(viewsRoute, 'POST', '', { body: { path: '/' }, params: { id: space.id } });
    await view();
    const today = new Date().toISOString().slice(0, 10);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + day);
    try {
      await view();
    } finally {
      vi.useRealTimers();
    }
    await flushViews();
    const ids = (await db.spaceView.findMany({ where: { spaceId: space.id } })).map((v) => v.id);
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(kept.id);
    expect(ids).toHaveLength(3);
    expect(await db.dailySalt.findUnique({ where: { day: today } })).toBeNull();
  });
});
