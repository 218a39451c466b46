import { describe, expect, it } from 'vitest';
import { POST as decideRoute } from '@/app/v1/auth/cli/decide/route.ts';
import { POST as startRoute } from '@/app/v1/auth/cli/start/route.ts';
import { DELETE as deleteMeRoute, GET as meRoute } from '@/app/v1/me/route.ts';
import { accountDeletionPlan } from '@/lib/accounts/deletion.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';

const deleteMe = (token: string) => call(deleteMeRoute, 'DELETE', '/v1/me', { token });

async function shared(slug: string, members: { userId: string; role: 'owner' | 'admin' | 'member' | 'viewer'; joined: number; status?: 'pending' | 'accepted' }[]) {
  const workspace = await db.workspace.create({ data: { id: `ws_${slug}`, slug, name: slug } });
  for (const m of members) {
    await db.membership.create({
      data: {
        workspaceId: workspace.id,
        userId: m.userId,
        role: m.role,
        status: m.status ?? 'accepted',
        createdAt: new Date(m.joined),
        acceptedAt: m.status === 'pending' ? null : new Date(m.joined),
      },
    });
  }
  return workspace;
}

const roleOf = async (workspaceId: string, userId: string) =>
  (await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } }))?.role;

describe('DELETE /v1/me', () => {
  it('removes the user, their tokens and sessions, and their personal workspace; answers 204', async () => {
    const cli = await signIn('alice', 'cli');
    const web = await signIn('alice', 'web');
    const { status, text } = await deleteMe(cli.token);
    expect(status).toBe(204);
    expect(text).toBe('');
    expect(await db.user.count({ where: { id: cli.user.id } })).toBe(0);
    expect(await db.token.count({ where: { userId: cli.user.id } })).toBe(0);
    expect(await db.workspace.count({ where: { slug: 'alice' } })).toBe(0);
    expect((await call(meRoute, 'GET', '/v1/me', { token: web.token })).status).toBe(401);
    // The handle can be taken again.
    expect((await signIn('alice')).user.id).not.toBe(cli.user.id);
  });

  it('deletes a workspace whose other people were only invited, not members', async () => {
    const owner = await signIn('bob');
    const invitee = await signIn('carol');
    const ws = await shared('bobs-team', [
      { userId: owner.user.id, role: 'owner', joined: 1 },
      { userId: invitee.user.id, role: 'member', joined: 2, status: 'pending' },
    ]);
    await deleteMe(owner.token);
    expect(await db.workspace.count({ where: { id: ws.id } })).toBe(0);
    expect((await call(meRoute, 'GET', '/v1/me', { token: invitee.token })).json.invites).toEqual([]);
  });

  it('passes a shared workspace it alone owned to the earliest other member, who becomes owner', async () => {
    const owner = await signIn('dave');
    const early = await signIn('erin');
    const late = await signIn('frank');
    const ws = await shared('daves-team', [
      { userId: owner.user.id, role: 'owner', joined: 1000 },
      { userId: late.user.id, role: 'admin', joined: 3000 },
      { userId: early.user.id, role: 'viewer', joined: 2000 },
    ]);
    expect(await accountDeletionPlan(owner.user.id)).toMatchObject({
      deleted: [{ slug: 'dave' }],
      transferred: [{ workspace: { slug: 'daves-team' }, to: { handle: 'erin' } }],
      left: [],
    });
    expect((await deleteMe(owner.token)).status).toBe(204);
    expect(await db.workspace.count({ where: { id: ws.id } })).toBe(1);
    expect(await roleOf(ws.id, early.user.id)).toBe('owner');
    expect(await roleOf(ws.id, late.user.id)).toBe('admin');
    expect(await roleOf(ws.id, owner.user.id)).toBeUndefined();
  });

  it('leaves a shared workspace that has another owner as it is, apart from the membership', async () => {
    const leaving = await signIn('gina');
    const coOwner = await signIn('heidi');
    const member = await signIn('ivan');
    const ws = await shared('co-owned', [
      { userId: member.user.id, role: 'member', joined: 1 },
      { userId: leaving.user.id, role: 'owner', joined: 2 },
      { userId: coOwner.user.id, role: 'owner', joined: 3 },
    ]);
    await deleteMe(leaving.token);
    expect(await roleOf(ws.id, member.user.id)).toBe('member');
    expect(await roleOf(ws.id, coOwner.user.id)).toBe('owner');
  });

  it('simply leaves a shared workspace it was a member of', async () => {
    const owner = await signIn('judy');
    const member = await signIn('kim');
    const ws = await shared('judys-team', [
      { userId: owner.user.id, role: 'owner', joined: 1 },
      { userId: member.user.id, role: 'member', joined: 2 },
    ]);
    await deleteMe(member.token);
    expect(await db.membership.count({ where: { workspaceId: ws.id } })).toBe(1);
    expect(await roleOf(ws.id, owner.user.id)).toBe('owner');
  });

  it('passes a shared personal workspace on as an ordinary workspace', async () => {
    const owner = await signIn('leo');
    const member = await signIn('mia');
    const personal = await db.workspace.findUniqueOrThrow({ where: { slug: 'leo' } });
    await db.membership.create({ data: { workspaceId: personal.id, userId: member.user.id, role: 'member', status: 'accepted', acceptedAt: new Date() } });
    await deleteMe(owner.token);
    expect(await db.workspace.findUniqueOrThrow({ where: { id: personal.id } })).toMatchObject({ personal: false, slug: 'leo' });
    expect(await roleOf(personal.id, member.user.id)).toBe('owner');
  });

  it("keeps what the user did for others: invitations they sent stay, without the inviter", async () => {
    const inviter = await signIn('nina');
    const invitee = await signIn('otto');
    const other = await signIn('pia');
    const ws = await shared('pias-team', [
      { userId: other.user.id, role: 'owner', joined: 1 },
      { userId: inviter.user.id, role: 'admin', joined: 2 },
    ]);
    await db.membership.create({ data: { workspaceId: ws.id, userId: invitee.user.id, role: 'member', status: 'pending', invitedById: inviter.user.id } });
    await deleteMe(inviter.token);
    const invitation = await db.membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: ws.id, userId: invitee.user.id } } });
    expect(invitation).toMatchObject({ status: 'pending', invitedById: null });
  });

  it('removes their blocks both ways, OAuth links, e-mail sign-in links and the sign-ins they approved', async () => {
    const leaving = await signIn('quinn', 'web');
    const other = await signIn('rosa');
    await db.user.update({ where: { id: leaving.user.id }, data: { email: 'quinn@example.com' } });
    await db.userBlock.createMany({ data: [{ blockerId: leaving.user.id, blockedId: other.user.id }, { blockerId: other.user.id, blockedId: leaving.user.id }] });
    await db.oAuthAccount.create({ data: { provider: 'github', providerAccountId: '42', userId: leaving.user.id } });
    await db.emailSignIn.create({ data: { tokenHash: 'h', email: 'quinn@example.com', expiresAt: new Date(Date.now() + 60_000) } });
    const started = await call(startRoute, 'POST', '/v1/auth/cli/start', { body: {} });
    await call(decideRoute, 'POST', '/v1/auth/cli/decide', { token: leaving.token, body: { userCode: started.json.userCode, approve: true } });

    expect((await deleteMe(leaving.token)).status).toBe(204);
    expect(await db.userBlock.count()).toBe(0);
    expect(await db.oAuthAccount.count()).toBe(0);
    expect(await db.emailSignIn.count()).toBe(0);
    expect(await db.cliSignIn.count({ where: { userCode: started.json.userCode } })).toBe(0);
    expect(await db.user.count({ where: { id: other.user.id } })).toBe(1);
  });

  it('answers 401 without a token', async () => {
    expect((await call(deleteMeRoute, 'DELETE', '/v1/me')).status).toBe(401);
  });
});
