import { describe, expect, it } from 'vitest';
import { POST as linkAcceptRoute } from '@/app/v1/workspace-invites/accept/route.ts';
import { GET as auditRoute } from '@/app/v1/workspaces/[slug]/audit/route.ts';
import { DELETE as revokeRoute } from '@/app/v1/workspaces/[slug]/invites/[id]/route.ts';
import { POST as linkRoute } from '@/app/v1/workspaces/[slug]/invites/route.ts';
import { DELETE as removeRoute, PATCH as roleRoute } from '@/app/v1/workspaces/[slug]/members/[handle]/route.ts';
import { POST as declineRoute } from '@/app/v1/workspaces/[slug]/decline/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { PATCH as patchRoute } from '@/app/v1/workspaces/[slug]/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';
import { team, type Person } from '../workspaces/helpers.ts';

const audit = (by: Person, slug: string, query = '') =>
  call(auditRoute, 'GET', `/v1/workspaces/${slug}/audit${query}`, { token: by.token, params: { slug } });

type Event = { action: string; actor: { handle: string } | null; target: { type: string; label: string | null } | null; details: Record<string, unknown> };
const summary = (events: Event[]) => events.map((e) => `${e.actor?.handle ?? '-'} ${e.action} ${e.target?.label ?? e.target?.type ?? '-'}`);

describe('GET /v1/workspaces/{slug}/audit', () => {
  it('records member and invite changes, newest first, with who, what, target, details and when', async () => {
    const [ana, bob, cat, dom] = await Promise.all(['ana', 'bob', 'cat', 'dom'].map((h) => signIn(h)));
    const started = Date.now();
    await team('atlas', ana, [[bob, 'member']]);
    const p = { slug: 'atlas' };
    await call(roleRoute, 'PATCH', '/v1/workspaces/atlas/members/bob', { token: ana.token, params: { ...p, handle: 'bob' }, body: { role: 'admin' } });
    await call(inviteRoute, 'POST', '/v1/workspaces/atlas/members', { token: bob.token, params: p, body: { handle: 'cat', role: 'viewer' } });
    await call(declineRoute, 'POST', '/v1/workspaces/atlas/decline', { token: cat.token, params: p });
    const link = (await call(linkRoute, 'POST', '/v1/workspaces/atlas/invites', { token: ana.token, params: p, body: { email: 'dom@example.com', maxUses: 3 } })).json;
    await db.user.update({ where: { id: dom.user.id }, data: { email: 'dom@example.com' } });
    await call(linkAcceptRoute, 'POST', '/v1/workspace-invites/accept', { token: dom.token, body: { token: link.url.split('/invite/')[1] } });
    await call(revokeRoute, 'DELETE', `/v1/workspaces/atlas/invites/${link.invite.id}`, { token: ana.token, params: { ...p, id: link.invite.id } });
    await call(removeRoute, 'DELETE', '/v1/workspaces/atlas/members/dom', { token: bob.token, params: { ...p, handle: 'dom' } });
    await call(removeRoute, 'DELETE', '/v1/workspaces/atlas/members/bob', { token: bob.token, params: { ...p, handle: 'bob' } });
    await call(patchRoute, 'PATCH', '/v1/workspaces/atlas', { token: ana.token, params: p, body: { name: 'Atlas' } });

    const { status, json } = await audit(ana, 'atlas');
    expect(status).toBe(200);
    expect(summary(json.events)).toEqual([
      'ana workspace.updated atlas',
      'bob member.left bob',
      'bob member.removed dom',
      'ana invite_link.revoked dom@example.com',
      'dom member.joined dom',
      'ana invite_link.created dom@example.com',
      'cat member.declined cat',
      'bob member.invited cat',
      'ana member.role_changed bob',
      'bob member.joined bob',
      'ana member.invited bob',
      'ana workspace.created atlas',
    ]);
    expect(json.next).toBeNull();
    const byAction = (action: string) => json.events.find((e: Event) => e.action === action);
    expect(byAction('member.role_changed')).toEqual({
      id: expect.stringMatching(/^aud_[a-z0-9]{21}$/),
      action: 'member.role_changed',
      actor: { id: ana.user.id, handle: 'ana' },
      target: { type: 'user', id: bob.user.id, label: 'bob' },
      details: { from: 'member', to: 'admin' },
      createdAt: expect.any(Number),
    });
    expect(byAction('member.joined').details).toEqual({ role: 'member', via: 'invite_link', inviteId: link.invite.id });
    expect(byAction('invite_link.created').details).toEqual({ role: 'member', email: 'dom@example.com', maxUses: 3, expiresAt: link.invite.expiresAt });
    expect(byAction('workspace.updated').details).toEqual({ name: { from: 'Team atlas', to: 'Atlas' } });
    expect(byAction('member.invited').details).toEqual({ role: 'viewer' });
    expect(json.events.every((e: { createdAt: number }) => e.createdAt >= started - 1000 && e.createdAt <= Date.now())).toBe(true);
    // The link's secret never reaches the log.
    expect(JSON.stringify(json)).not.toContain(link.url.split('/invite/')[1]);
  });

  it('pages with limit (default 50) and before, handing out next until the oldest event', async () => {
    const eli = await signIn('eli');
    await team('pages', eli);
    for (let i = 0; i < 54; i++) {
      await call(patchRoute, 'PATCH', '/v1/workspaces/pages', { token: eli.token, params: { slug: 'pages' }, body: { name: `Name ${i}` } });
    }
    // 55 events: the creation and 54 renames.
    const first = (await audit(eli, 'pages')).json;
    expect(first.events).toHaveLength(50);
    expect(first.events[0].details.name.to).toBe('Name 53');
    expect(first.next).toEqual(expect.any(Number));
    const second = (await audit(eli, 'pages', `?before=${first.next}`)).json;
    expect(second.events.map((e: Event) => e.action)).toEqual(['workspace.updated', 'workspace.updated', 'workspace.updated', 'workspace.updated', 'workspace.created']);
    expect(second.next).toBeNull();

    const small = (await audit(eli, 'pages', '?limit=2')).json;
    expect(small.events.map((e: { details: { name: { to: string } } }) => e.details.name.to)).toEqual(['Name 53', 'Name 52']);
    const next = (await audit(eli, 'pages', `?limit=2&before=${small.next}`)).json;
    expect(next.events.map((e: { details: { name: { to: string } } }) => e.details.name.to)).toEqual(['Name 51', 'Name 50']);

    expect((await audit(eli, 'pages', '?limit=0')).status).toBe(400);
    expect((await audit(eli, 'pages', '?limit=201')).status).toBe(400);
    expect((await audit(eli, 'pages', '?before=soon')).status).toBe(400);
  });

  it('is for owners and admins: 403 for members and viewers, 404 for outsiders', async () => {
    const [fin, gil, hen, ike, jay] = await Promise.all(['fin', 'gil', 'hen', 'ike', 'jay'].map((h) => signIn(h)));
    await team('vault', fin, [[gil, 'admin'], [hen, 'member'], [ike, 'viewer']]);
    expect((await audit(gil, 'vault')).status).toBe(200);
    expect((await audit(hen, 'vault')).status).toBe(403);
    expect((await audit(ike, 'vault')).status).toBe(403);
    expect((await audit(jay, 'vault')).status).toBe(404);
  });

  it('keeps each workspace’s events to itself', async () => {
    const [kip, lin] = [await signIn('kip'), await signIn('lin')];
    await team('one', kip);
    await team('two', lin);
    expect(summary((await audit(kip, 'one')).json.events)).toEqual(['kip workspace.created one']);
  });

  it('records nothing for a change that is refused', async () => {
    const mo = await signIn('mo');
    await team('solo', mo);
    const refused = await call(removeRoute, 'DELETE', '/v1/workspaces/solo/members/mo', { token: mo.token, params: { slug: 'solo', handle: 'mo' } });
    expect(refused.status).toBe(409);
    expect(summary((await audit(mo, 'solo')).json.events)).toEqual(['mo workspace.created solo']);
  });

  it('is written in the same transaction as the change: when the record fails, the change is undone', async () => {
    const [pam, quincy] = [await signIn('pam'), await signIn('quincy')];
    await team('atomic', pam, [[quincy, 'member']]);
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END; $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION refuse_audit()`);
    try {
      const change = await call(roleRoute, 'PATCH', '/v1/workspaces/atomic/members/quincy', {
        token: pam.token,
        params: { slug: 'atomic', handle: 'quincy' },
        body: { role: 'admin' },
      });
      expect(change.status).toBe(500);
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER refuse_audit ON "AuditEvent"');
    }
    const row = await db.membership.findFirstOrThrow({ where: { workspace: { slug: 'atomic' }, userId: quincy.user.id } });
    expect(row.role).toBe('member');
  });

  it('is append-only: the database refuses to change an event', async () => {
    const nat = await signIn('nat');
    await team('ledger', nat);
    await expect(db.auditEvent.updateMany({ where: { action: 'workspace.created' }, data: { action: 'forged' } })).rejects.toThrow(/append-only/);
    expect(summary((await audit(nat, 'ledger')).json.events)).toEqual(['nat workspace.created ledger']);
  });

  it('keeps who acted after their account is gone', async () => {
    const [oda, pia] = [await signIn('oda'), await signIn('pia')];
    await team('estate', oda, [[pia, 'admin']]);
    await db.user.delete({ where: { id: pia.user.id } });
    const events = (await audit(oda, 'estate')).json.events as Event[];
    expect(events.find((e) => e.action === 'member.joined')!.actor).toEqual({ id: pia.user.id, handle: 'pia' });
  });
});
