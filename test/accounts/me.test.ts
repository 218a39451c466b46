import { describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';
import { countQueries } from '../query-count.ts';

describe('GET /v1/me', () => {
  it('returns the full current-user record with its defaults', async () => {
    const { token, user } = await signIn('alice', 'cli', 'Alice Liddell');
    const { status, json } = await call(meRoute, 'GET', '/v1/me', { token });
    expect(status).toBe(200);
    expect(json).toEqual({
      user: { id: user.id, handle: 'alice', name: 'Alice Liddell' },
      workspaces: [{ id: expect.stringMatching(/^ws_[a-z0-9]{21}$/), slug: 'alice', name: 'alice', role: 'owner' }],
      invites: [],
      preferences: { developerMode: false },
      blocked: [],
    });
    expect(user.id).toMatch(/^usr_[a-z0-9]{21}$/);
  });

  it('lists pending invitations with the offered role, apart from accepted workspaces', async () => {
    const { token, user } = await signIn('bob');
    const owner = await signIn('carol');
    const team = await db.workspace.create({ data: { id: 'ws_team', slug: 'team', name: 'The Team' } });
    await db.membership.create({ data: { workspaceId: team.id, userId: owner.user.id, role: 'owner', status: 'accepted' } });
    await db.membership.create({ data: { workspaceId: team.id, userId: user.id, role: 'admin', status: 'pending', invitedById: owner.user.id } });
    const { json } = await call(meRoute, 'GET', '/v1/me', { token });
    expect(json.workspaces.map((w: { slug: string }) => w.slug)).toEqual(['bob']);
    expect(json.invites).toEqual([{ id: 'ws_team', slug: 'team', name: 'The Team', role: 'admin' }]);
  });

  it('answers 401 with the error envelope without a token', async () => {
    const { status, json } = await call(meRoute, 'GET', '/v1/me');
    expect(status).toBe(401);
    expect(json).toEqual({ error: { code: 'unauthorized', message: expect.stringContaining('Sign in') } });
  });

  it('answers 401 for an unknown token and for a malformed Authorization header', async () => {
    expect((await call(meRoute, 'GET', '/v1/me', { token: 'atr_nope' })).status).toBe(401);
    const malformed = await call(meRoute, 'GET', '/v1/me', { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.json.error.message).toContain('Bearer');
  });

  it('answers 401 once a token has expired', async () => {
    const { token, user } = await signIn('dave');
    await db.token.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(401);
  });

  it('accepts a web session as a cookie and as a Bearer token', async () => {
    const { token, headers } = await signIn('erin', 'web');
    expect(token.startsWith('atrs_')).toBe(true);
    const cookie = headers.get('set-cookie')!.split(';')[0];
    expect(cookie).toBe(`atrium_session=${token}`);
    expect(headers.get('set-cookie')).toContain('HttpOnly');
    expect((await call(meRoute, 'GET', '/v1/me', { cookie })).json.user.handle).toBe('erin');
    expect((await call(meRoute, 'GET', '/v1/me', { token })).json.user.handle).toBe('erin');
  });

  it('records last use without writing on every request, and slides the CLI expiry to 90 days', async () => {
    const { token, user } = await signIn('frank');
    const day = 24 * 60 * 60 * 1000;
    await call(meRoute, 'GET', '/v1/me', { token });
    const first = await db.token.findFirstOrThrow({ where: { userId: user.id } });
    expect(first.lastUsedAt).not.toBeNull();
    expect(first.expiresAt!.getTime() - first.lastUsedAt!.getTime()).toBe(90 * day);
    await call(meRoute, 'GET', '/v1/me', { token });
    const second = await db.token.findFirstOrThrow({ where: { userId: user.id } });
    expect(second.lastUsedAt).toEqual(first.lastUsedAt);
  });

  it('never stores a token in clear', async () => {
    const { token, user } = await signIn('grace');
    const stored = await db.token.findFirstOrThrow({ where: { userId: user.id } });
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('costs two queries however many workspaces and blocks the user has', async () => {
    const { token, user } = await signIn('henry');
    for (let i = 0; i < 5; i++) {
      const workspace = await db.workspace.create({ data: { id: `ws_many${i}`, slug: `many-${i}`, name: `Many ${i}` } });
      await db.membership.create({ data: { workspaceId: workspace.id, userId: user.id, role: 'member', status: 'accepted' } });
    }
    await call(meRoute, 'GET', '/v1/me', { token });
    expect(await countQueries(() => call(meRoute, 'GET', '/v1/me', { token }))).toBe(2);
  });
});
