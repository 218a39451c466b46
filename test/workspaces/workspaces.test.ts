import { describe, expect, it } from 'vitest';
import { GET as getRoute, PATCH as patchRoute } from '@/app/v1/workspaces/[slug]/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { POST as createSpaceRoute } from '@/app/v1/spaces/route.ts';
import { GET as listRoute, POST as createRoute } from '@/app/v1/workspaces/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';
import { team } from './helpers.ts';
import { enforcePlanLimits } from '../plan-limits.ts';

const create = (token: string, body: unknown) => call(createRoute, 'POST', '/v1/workspaces', { token, body });
const get = (token: string, slug: string) => call(getRoute, 'GET', `/v1/workspaces/${slug}`, { token, params: { slug } });
const patch = (token: string, slug: string, body: unknown) => call(patchRoute, 'PATCH', `/v1/workspaces/${slug}`, { token, params: { slug }, body });

describe('POST /v1/workspaces', () => {
  it('creates a workspace whose creator is its owner', async () => {
    const ann = await signIn('ann');
    const { status, json } = await create(ann.token, { slug: 'acme', name: 'Acme Corp' });
    expect(status).toBe(200);
    expect(json).toEqual({ id: expect.stringMatching(/^ws_[a-z0-9]{21}$/), slug: 'acme', name: 'Acme Corp', role: 'owner' });
    const list = await call(listRoute, 'GET', '/v1/workspaces', { token: ann.token });
    expect(list.status).toBe(200);
    expect(list.json.map((w: { slug: string; role: string }) => `${w.slug}:${w.role}`)).toEqual(['ann:owner', 'acme:owner']);
  });

  it('refuses a reserved slug with 400 and a bad slug or name with 400', async () => {
    const ann = await signIn('ann2');
    expect((await create(ann.token, { slug: 'settings', name: 'x' })).status).toBe(400);
    expect((await create(ann.token, { slug: 'invite', name: 'x' })).status).toBe(400);
    expect((await create(ann.token, { slug: 'Bad_Slug', name: 'x' })).json.error.message).toContain('body.slug');
    expect((await create(ann.token, { slug: 'fine', name: '' })).status).toBe(400);
    expect((await create(ann.token, { slug: 'fine', name: 'x'.repeat(101) })).status).toBe(400);
  });

  it('answers 409 for a slug another workspace or a user handle holds', async () => {
    const ann = await signIn('ann3');
    await signIn('bert');
    expect((await create(ann.token, { slug: 'taken', name: 'One' })).status).toBe(200);
    const again = await create(ann.token, { slug: 'taken', name: 'Two' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    // bert's personal workspace holds "bert"; after a slug change, his handle still does.
    expect((await create(ann.token, { slug: 'bert', name: 'Bert' })).status).toBe(409);
    const bert = await db.workspace.update({ where: { slug: 'bert' }, data: { slug: 'bert-home' } });
    expect(bert.slug).toBe('bert-home');
    expect((await create(ann.token, { slug: 'bert', name: 'Bert' })).status).toBe(409);
  });

  it('needs a signed-in caller (401)', async () => {
    expect((await call(createRoute, 'POST', '/v1/workspaces', { body: { slug: 'nobody', name: 'x' } })).status).toBe(401);
    expect((await call(listRoute, 'GET', '/v1/workspaces')).status).toBe(401);
  });
});

describe('GET /v1/workspaces/{slug}', () => {
  it('shows members, seats and the caller role to members, and pending invitations only to owners and admins', async () => {
    enforcePlanLimits();
    const [cara, dan, eve, fay] = [await signIn('cara', 'cli', 'Cara'), await signIn('dan'), await signIn('eve'), await signIn('fay')];
    await team('studio', cara, [[dan, 'member']], 'free');
    await call(inviteRoute, 'POST', '/v1/workspaces/studio/members', { token: cara.token, params: { slug: 'studio' }, body: { handle: 'fay', role: 'viewer' } });

    const forOwner = await get(cara.token, 'studio');
    expect(forOwner.status).toBe(200);
    expect(forOwner.json).toMatchObject({ slug: 'studio', name: 'Team studio', role: 'owner', spaceCount: 0 });
    expect(forOwner.json.createdAt).toBeGreaterThan(Date.now() - 60_000);
    for (const name of ['One', 'Two']) {
      expect((await call(createSpaceRoute, 'POST', '/v1/spaces', { token: cara.token, body: { workspace: 'studio', name } })).status).toBe(200);
    }
    expect((await get(cara.token, 'studio')).json.spaceCount).toBe(2);
    expect(forOwner.json.seats).toEqual({ plan: 'free', used: 2, pending: 1, limit: 3 });
    expect(forOwner.json.members).toEqual([
      { user: { id: cara.user.id, handle: 'cara', name: 'Cara' }, role: 'owner', status: 'accepted', invitedBy: null, invitedAt: expect.any(Number), joinedAt: expect.any(Number) },
      { user: { id: dan.user.id, handle: 'dan', name: null }, role: 'member', status: 'accepted', invitedBy: { id: cara.user.id, handle: 'cara', name: 'Cara' }, invitedAt: expect.any(Number), joinedAt: expect.any(Number) },
      { user: { id: fay.user.id, handle: 'fay', name: null }, role: 'viewer', status: 'pending', invitedBy: expect.objectContaining({ handle: 'cara' }), invitedAt: expect.any(Number), joinedAt: null },
    ]);

    const forMember = await get(dan.token, 'studio');
    expect(forMember.json.role).toBe('member');
    expect(forMember.json.members.map((m: { user: { handle: string } }) => m.user.handle)).toEqual(['cara', 'dan']);

    // Someone outside, and someone only invited, cannot see it: 404, as for a workspace that does not exist.
    for (const token of [eve.token, fay.token]) {
      const hidden = await get(token, 'studio');
      expect(hidden.status).toBe(404);
      expect(hidden.json.error.code).toBe('not_found');
    }
    expect((await get(eve.token, 'no-such-workspace')).status).toBe(404);
  });
});

describe('PATCH /v1/workspaces/{slug}', () => {
  it('lets owners and admins rename a workspace and change its slug', async () => {
    const [gil, hal] = [await signIn('gil'), await signIn('hal')];
    await team('old-name', gil, [[hal, 'admin']]);
    const renamed = await patch(hal.token, 'old-name', { slug: 'new-name', name: 'New Name' });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toEqual({ id: expect.any(String), slug: 'new-name', name: 'New Name', role: 'admin' });
    expect((await get(gil.token, 'old-name')).status).toBe(404);
    expect((await get(gil.token, 'new-name')).json.name).toBe('New Name');
  });

  it('answers 403 to members and viewers, 404 to outsiders, 409 for a taken slug and 400 for a reserved one', async () => {
    const [ida, jon, kim, lou] = [await signIn('ida'), await signIn('jon'), await signIn('kim'), await signIn('lou')];
    await team('guild', ida, [[jon, 'member'], [kim, 'viewer']]);
    expect((await patch(jon.token, 'guild', { name: 'Mine' })).status).toBe(403);
    expect((await patch(kim.token, 'guild', { name: 'Mine' })).status).toBe(403);
    expect((await patch(lou.token, 'guild', { name: 'Mine' })).status).toBe(404);
    expect((await patch(ida.token, 'guild', { slug: 'lou' })).status).toBe(409);
    expect((await patch(ida.token, 'guild', { slug: 'admin' })).status).toBe(400);
    expect((await get(ida.token, 'guild')).json.name).toBe('Team guild');
  });

  it('lets a personal workspace take back its owner handle as slug', async () => {
    const max = await signIn('max');
    expect((await patch(max.token, 'max', { slug: 'max-home' })).status).toBe(200);
    expect((await patch(max.token, 'max-home', { slug: 'max' })).status).toBe(200);
  });
});
