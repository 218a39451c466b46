import { describe, expect, it } from 'vitest';
import { DELETE as unblockRoute } from '@/app/v1/me/blocks/[userId]/route.ts';
import { POST as blockRoute } from '@/app/v1/me/blocks/route.ts';
import { PATCH as handleRoute } from '@/app/v1/me/handle/route.ts';
import { PATCH as preferencesRoute } from '@/app/v1/me/preferences/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';

const me = async (token: string) => (await call(meRoute, 'GET', '/v1/me', { token })).json;
const block = (token: string, userId: unknown) => call(blockRoute, 'POST', '/v1/me/blocks', { token, body: { userId } });
const unblock = (token: string, userId: string) => call(unblockRoute, 'DELETE', `/v1/me/blocks/${userId}`, { token, params: { userId } });
const changeHandle = (token: string, handle: string) => call(handleRoute, 'PATCH', '/v1/me/handle', { token, body: { handle } });

describe('blocks', () => {
  it('blocks and unblocks, both idempotent, and lists the blocked ids on /v1/me', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    expect((await block(alice.token, bob.user.id)).status).toBe(204);
    expect((await block(alice.token, bob.user.id)).status).toBe(204);
    expect((await me(alice.token)).blocked).toEqual([bob.user.id]);
    expect((await me(bob.token)).blocked).toEqual([]);
    expect((await unblock(alice.token, bob.user.id)).status).toBe(204);
    expect((await unblock(alice.token, bob.user.id)).status).toBe(204);
    expect((await me(alice.token)).blocked).toEqual([]);
  });

  it('answers 400 for blocking yourself and 404 for an unknown user', async () => {
    const carol = await signIn('carol');
    const self = await block(carol.token, carol.user.id);
    expect(self.status).toBe(400);
    expect(self.json.error.code).toBe('bad_request');
    const unknown = await block(carol.token, 'usr_nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
    expect((await block(carol.token, '')).status).toBe(400);
    expect((await block(carol.token, 'x'.repeat(101))).status).toBe(400);
  });
});

describe('PATCH /v1/me/preferences', () => {
  it('turns developer mode on and off, and an empty body changes nothing', async () => {
    const { token } = await signIn('dave');
    const on = await call(preferencesRoute, 'PATCH', '/v1/me/preferences', { token, body: { developerMode: true } });
    expect(on.status).toBe(200);
    expect(on.json).toEqual({ developerMode: true });
    expect((await me(token)).preferences).toEqual({ developerMode: true });
    expect((await call(preferencesRoute, 'PATCH', '/v1/me/preferences', { token, body: {} })).json).toEqual({ developerMode: true });
    expect((await call(preferencesRoute, 'PATCH', '/v1/me/preferences', { token, body: { developerMode: 'yes' } })).status).toBe(400);
    expect((await call(preferencesRoute, 'PATCH', '/v1/me/preferences', { token, body: { developerMode: false } })).json).toEqual({ developerMode: false });
  });
});

describe('PATCH /v1/me/handle', () => {
  it('changes the handle; the personal workspace slug and unchanged name follow', async () => {
    const { token, user } = await signIn('erin', 'cli', 'Erin');
    const changed = await changeHandle(token, 'erin-b');
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({ id: user.id, handle: 'erin-b', name: 'Erin' });
    expect((await me(token)).workspaces).toEqual([expect.objectContaining({ slug: 'erin-b', name: 'erin-b', role: 'owner' })]);
    // The old handle is free again.
    expect((await signIn('erin')).user.id).not.toBe(user.id);
  });

  it('keeps a personal workspace name that was changed', async () => {
    const { token, user } = await signIn('frank');
    await db.workspace.updateMany({ where: { slug: 'frank' }, data: { name: "Frank's sites" } });
    await changeHandle(token, 'franky');
    const workspace = await db.workspace.findFirstOrThrow({ where: { memberships: { some: { userId: user.id } } } });
    expect(workspace).toMatchObject({ slug: 'franky', name: "Frank's sites" });
  });

  it('leaves a personal workspace slug alone that no longer matched the handle', async () => {
    const { token, user } = await signIn('gina');
    await db.workspace.updateMany({ where: { slug: 'gina' }, data: { slug: 'gina-sites' } });
    await changeHandle(token, 'gina2');
    const workspace = await db.workspace.findFirstOrThrow({ where: { memberships: { some: { userId: user.id } } } });
    expect(workspace.slug).toBe('gina-sites');
    // Taking your own personal workspace's slug as handle is allowed.
    expect((await changeHandle(token, 'gina-sites')).status).toBe(200);
  });

  it('answers 400 for a reserved handle and for one breaking the pattern', async () => {
    const { token } = await signIn('heidi');
    for (const handle of ['settings', 'device', 'api', 'signin']) {
      const { status, json } = await changeHandle(token, handle);
      expect(status, handle).toBe(400);
      expect(json.error.message).toContain('reserved');
    }
    expect((await changeHandle(token, 'Heidi')).status).toBe(400);
    expect((await changeHandle(token, 'heidi-')).status).toBe(400);
  });

  it("answers 409 for another user's handle or another workspace's slug", async () => {
    const { token } = await signIn('ivan');
    await signIn('judy');
    const taken = await changeHandle(token, 'judy');
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe('conflict');
    await db.workspace.create({ data: { id: 'ws_acme', slug: 'acme', name: 'Acme' } });
    expect((await changeHandle(token, 'acme')).status).toBe(409);
    expect((await me(token)).user.handle).toBe('ivan');
  });

  it('answers 200 and changes nothing for the current handle', async () => {
    const { token, user } = await signIn('kim');
    expect((await changeHandle(token, 'kim')).json).toEqual({ id: user.id, handle: 'kim', name: null });
  });
});
