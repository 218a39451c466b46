import { describe, expect, it } from 'vitest';
import { PATCH as profileRoute } from '@/app/v1/me/profile/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { publicProfile } from '@/lib/accounts/profile.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';

const setName = (token: string, name: unknown) => call(profileRoute, 'PATCH', '/v1/me/profile', { token, body: { name } });
const me = async (token: string) => (await call(meRoute, 'GET', '/v1/me', { token })).json;

describe('PATCH /v1/me/profile', () => {
  it('sets, trims and clears the display name', async () => {
    const dana = await signIn('dana');
    const set = await setName(dana.token, '  Dana Scully ');
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ id: dana.user.id, handle: 'dana', name: 'Dana Scully' });
    expect((await me(dana.token)).user.name).toBe('Dana Scully');
    expect((await setName(dana.token, null)).json.name).toBeNull();
    expect((await me(dana.token)).user.name).toBeNull();
  });

  it('refuses empty, too long, control characters and a missing name', async () => {
    const erin = await signIn('erin');
    for (const name of ['', 'x'.repeat(101), 'a\u0000b', 42]) {
      const answer = await setName(erin.token, name);
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.json.error.code).toBe('bad_request');
    }
    expect((await call(profileRoute, 'PATCH', '/v1/me/profile', { token: erin.token, body: {} })).status).toBe(400);
    expect((await setName(erin.token, 'x'.repeat(100))).status).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    expect((await call(profileRoute, 'PATCH', '/v1/me/profile', { body: { name: 'Nobody' } })).status).toBe(401);
  });
});

describe('publicProfile', () => {
  it('shows the name, the workspaces both people belong to and whether the viewer blocked them', async () => {
    const fay = await signIn('fay');
    const gus = await signIn('gus');
    await setName(gus.token, 'Gus Grissom');
    // Fay joins Gus's personal workspace; a pending invitation would not count.
    const gusSpace = await db.workspace.findUniqueOrThrow({ where: { slug: 'gus' } });
    await db.membership.create({ data: { workspaceId: gusSpace.id, userId: fay.user.id, role: 'viewer', status: 'accepted' } });
    const viewer = { actor: { user: fay.user } } as Parameters<typeof publicProfile>[0];
    const profile = await publicProfile(viewer, 'gus');
    expect(profile.user).toEqual({ id: gus.user.id, handle: 'gus', name: 'Gus Grissom' });
    expect(profile.shared.map((w) => w.slug)).toEqual(['gus']);
    expect(profile.blocked).toBe(false);
    await db.userBlock.create({ data: { blockerId: fay.user.id, blockedId: gus.user.id } });
    expect((await publicProfile(viewer, 'gus')).blocked).toBe(true);
    await expect(publicProfile(viewer, 'nobody-here')).rejects.toMatchObject({ code: 'not_found' });
  });
});
