// Deleting spaces and workspaces, and making API tokens in the web app: the
// routes the web app's danger zones and token page call.
import { describe, expect, it } from 'vitest';
import { DELETE as deleteSpaceRoute, GET as getSpaceRoute } from '@/app/v1/spaces/[id]/route.ts';
import { DELETE as deleteWorkspaceRoute } from '@/app/v1/workspaces/[slug]/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { GET as tokensRoute, POST as createTokenRoute } from '@/app/v1/tokens/route.ts';
import { db } from '@/lib/db/client.ts';
import { sweepStorage } from '@/lib/storage/gc.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';
import { team } from '../workspaces/helpers.ts';

const removeSpace = (token: string, id: string) => call(deleteSpaceRoute, 'DELETE', `/v1/spaces/${id}`, { token, params: { id } });
const removeWorkspace = (token: string, slug: string) => call(deleteWorkspaceRoute, 'DELETE', `/v1/workspaces/${slug}`, { token, params: { slug } });

describe('DELETE /v1/spaces/{id}', () => {
  it('lets a workspace admin delete a space with its versions, records who did, and releases its blobs', async () => {
    const owner = await signIn('del-owner');
    const admin = await signIn('del-admin');
    const member = await signIn('del-member');
    const stranger = await signIn('del-stranger');
    await team('del-team', owner, [
      [admin, 'admin'],
      [member, 'member'],
    ]);
    const space = await makeSpace(owner.token, 'del-team', { name: 'Old site', visibility: 'members' });
    await push(owner.token, space.id, { 'index.html': '<h1>only here</h1>' });
    const held = await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id } });
    expect(held).toBe(1);

    expect((await removeSpace(member.token, space.id)).status).toBe(403);
    expect((await removeSpace(stranger.token, space.id)).status).toBe(404);
    expect((await call(deleteSpaceRoute, 'DELETE', `/v1/spaces/${space.id}`, { params: { id: space.id } })).status).toBe(401);
    expect((await removeSpace(admin.token, space.id)).status).toBe(204);

    expect((await call(getSpaceRoute, 'GET', `/v1/spaces/${space.id}`, { token: owner.token, params: { id: space.id } })).status).toBe(404);
    expect(await db.version.count({ where: { spaceId: space.id } })).toBe(0);
    const event = await db.auditEvent.findFirstOrThrow({ where: { workspaceId: space.workspace.id, action: 'space.deleted' } });
    expect(event).toMatchObject({ actorHandle: 'del-admin', targetId: space.id, targetLabel: 'Old site' });
    // Nothing lists its blob any more: the collector lets it go and deletes its bytes.
    await sweepStorage({ graceMs: 0 });
    expect(await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id } })).toBe(0);
    expect((await removeSpace(admin.token, space.id)).status).toBe(404);
  });
});

describe('DELETE /v1/workspaces/{slug}', () => {
  it('lets an owner or admin delete a shared workspace with its spaces; members cannot, outsiders are not told it exists', async () => {
    const owner = await signIn('wdel-owner');
    const admin = await signIn('wdel-admin');
    const member = await signIn('wdel-member');
    const stranger = await signIn('wdel-stranger');
    await team('wdel-team', owner, [
      [admin, 'admin'],
      [member, 'member'],
    ]);
    const space = await makeSpace(owner.token, 'wdel-team');
    expect((await removeWorkspace(member.token, 'wdel-team')).status).toBe(403);
    expect((await removeWorkspace(stranger.token, 'wdel-team')).status).toBe(404);
    expect((await removeWorkspace(admin.token, 'wdel-team')).status).toBe(204);
    expect(await db.workspace.count({ where: { slug: 'wdel-team' } })).toBe(0);
    expect(await db.space.count({ where: { id: space.id } })).toBe(0);
    expect(await db.membership.count({ where: { userId: member.user.id, workspace: { slug: 'wdel-team' } } })).toBe(0);
    expect((await removeWorkspace(owner.token, 'wdel-team')).status).toBe(404);
  });

  it('refuses to delete a personal workspace (it goes with the account)', async () => {
    const person = await signIn('wdel-personal');
    const answer = await removeWorkspace(person.token, 'wdel-personal');
    expect(answer.status).toBe(409);
    expect(answer.json.error.message).toContain('personal workspace');
    expect(await db.workspace.count({ where: { slug: 'wdel-personal' } })).toBe(1);
  });
});

describe('POST /v1/tokens', () => {
  it('makes an API token from a web session, shown once, that then signs requests in', async () => {
    const web = await signIn('tok-maker', 'web');
    const made = await call(createTokenRoute, 'POST', '/v1/tokens', { token: web.token, body: { label: 'CI deploys' } });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ label: 'CI deploys', token: expect.stringMatching(/^atr/) });
    expect((await call(meRoute, 'GET', '/v1/me', { token: made.json.token })).json.user.handle).toBe('tok-maker');
    const listed = await call(tokensRoute, 'GET', '/v1/tokens', { token: web.token });
    expect(listed.json.tokens.find((t: { id: string }) => t.id === made.json.id)).toMatchObject({ label: 'CI deploys' });
    expect(JSON.stringify(listed.json)).not.toContain(made.json.token);
  });

  it('is refused to an API token (a leaked token cannot mint more) and to nobody', async () => {
    const cli = await signIn('tok-cli');
    expect((await call(createTokenRoute, 'POST', '/v1/tokens', { token: cli.token, body: { label: 'more' } })).status).toBe(403);
    expect((await call(createTokenRoute, 'POST', '/v1/tokens', { body: { label: 'more' } })).status).toBe(401);
    const web = await signIn('tok-web', 'web');
    expect((await call(createTokenRoute, 'POST', '/v1/tokens', { token: web.token, body: { label: '' } })).status).toBe(400);
  });
});

describe('deleting twice at once', () => {
  it('deletes once and answers the other 404, never 500', async () => {
    const owner = await signIn('race-owner');
    await team('race-team', owner);
    const space = await makeSpace(owner.token, 'race-team');
    const spaces = await Promise.all([removeSpace(owner.token, space.id), removeSpace(owner.token, space.id), removeSpace(owner.token, space.id)]);
    expect(spaces.map((a) => a.status).sort()).toEqual([204, 404, 404]);
    expect(await db.auditEvent.count({ where: { action: 'space.deleted', targetId: space.id } })).toBe(1);
    const workspaces = await Promise.all([removeWorkspace(owner.token, 'race-team'), removeWorkspace(owner.token, 'race-team'), removeWorkspace(owner.token, 'race-team')]);
    expect(workspaces.map((a) => a.status).sort()).toEqual([204, 404, 404]);
  });
});
