// A server without a billing provider (the self-hosted default): no plan caps
// unless the operator sets BILLING_PLANS; checkout, portal and keep answer 400,
// the webhook 404.
import { describe, expect, it } from 'vitest';
import { POST as webhookRoute } from '@/app/v1/billing/webhook/route.ts';
import { POST as checkoutRoute } from '@/app/v1/workspaces/[slug]/billing/checkout/route.ts';
import { POST as keepRoute } from '@/app/v1/workspaces/[slug]/billing/keep/route.ts';
import { POST as portalRoute } from '@/app/v1/workspaces/[slug]/billing/portal/route.ts';
import { GET as stateRoute } from '@/app/v1/workspaces/[slug]/billing/route.ts';
import { POST as createLiveSpaceRoute } from '@/app/v1/live-spaces/route.ts';
import { POST as createRoomRoute } from '@/app/v1/rooms/route.ts';
import { POST as uploadRoute } from '@/app/v1/spaces/[id]/uploads/route.ts';
import { limitsOf, PLAN_LIMITS, requireUnderLimit } from '@/lib/billing/plans.ts';
import { db } from '@/lib/db/client.ts';
import { ApiError } from '@/lib/core/errors.ts';
import { call, signIn } from '../helpers.ts';
import { enforcePlanLimits } from '../plan-limits.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { team } from '../workspaces/helpers.ts';

const state = (token: string, slug: string) => call(stateRoute, 'GET', `/v1/workspaces/${slug}/billing`, { token, params: { slug } });

describe('billing without a provider', () => {
  it('shows provider none, billing not configured and no limits to every member; nobody can manage', async () => {
    const [owner, viewer] = await Promise.all([signIn('sh-owner'), signIn('sh-viewer')]);
    await team('sh-free', owner, [[viewer, 'viewer']], 'free');
    for (const who of [owner, viewer]) {
      const { status, json } = await state(who.token, 'sh-free');
      expect(status).toBe(200);
      expect(json).toEqual({
        plan: 'free',
        status: 'active',
        renewsAt: null,
        usage: { seats: 2, rooms: 0, liveSpaces: 0, liveApps: 0, storageBytes: 0 },
        limits: { seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null, databaseBytes: null },
        provider: 'none',
        billingConfigured: false,
        // Whether the caller may manage billing, whatever there is to manage.
        canManage: who === owner,
        scheduled: null,
      });
    }
    const outsider = await signIn('sh-outsider');
    expect((await state(outsider.token, 'sh-free')).status).toBe(404);
  });

  it("counts the workspace's rooms and live spaces in its usage", async () => {
    const owner = await signIn('sh-rooms');
    await team('sh-rooms-team', owner, [], 'free');
    for (const prefix of ['rooms', 'rooms', 'live-spaces']) {
      const route = prefix === 'rooms' ? createRoomRoute : createLiveSpaceRoute;
      expect((await call(route, 'POST', `/v1/${prefix}`, { token: owner.token, body: { workspace: 'sh-rooms-team' } })).status).toBe(200);
    }
    const { json } = await state(owner.token, 'sh-rooms-team');
    expect(json.usage).toMatchObject({ rooms: 2, liveSpaces: 1 });
  });

  it('lets a fourth, fifth and sixth person join a free workspace', async () => {
    const people = await Promise.all(['sh-a', 'sh-b', 'sh-c', 'sh-d', 'sh-e', 'sh-f'].map((h) => signIn(h)));
    const [owner, ...others] = people;
    await team('sh-big', owner, others.map((p) => [p, 'member'] as const), 'free');
    expect(await db.membership.count({ where: { workspace: { slug: 'sh-big' }, status: 'accepted' } })).toBe(6);
  });

  it('stores past the built-in free plan storage', async () => {
    const { token } = await signIn('sh-store');
    const space = await makeSpace(token, 'sh-store');
    await db.workspace.update({ where: { id: space.workspace.id }, data: { storageBytes: BigInt(PLAN_LIMITS.free.storageBytes! + 1) } });
    const upload = await call(uploadRoute, 'POST', `/v1/spaces/${space.id}/uploads?name=a.txt`, { token, rawBody: new TextEncoder().encode('more'), headers: { 'content-length': '4' }, params: { id: space.id } });
    if (upload.status !== 200) throw new Error(upload.text);
    expect(upload.status).toBe(200);
  });

  it('answers checkout, portal and keep with 400 for owners (403 for members, 404 for outsiders)', async () => {
    const [owner, member, outsider] = await Promise.all([signIn('sh-o2'), signIn('sh-m2'), signIn('sh-x2')]);
    await team('sh-pay', owner, [[member, 'member']], 'pro');
    const p = { slug: 'sh-pay' };
    const checkout = (token: string) => call(checkoutRoute, 'POST', '/v1/workspaces/sh-pay/billing/checkout', { token, params: p, body: { plan: 'team' } });
    const portal = (token: string) => call(portalRoute, 'POST', '/v1/workspaces/sh-pay/billing/portal', { token, params: p });
    const keep = (token: string) => call(keepRoute, 'POST', '/v1/workspaces/sh-pay/billing/keep', { token, params: p });
    for (const action of [checkout, portal, keep]) {
      const refused = await action(owner.token);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toContain('BILLING_PROVIDER_SECRET_KEY');
      expect((await action(member.token)).status).toBe(403);
      expect((await action(outsider.token)).status).toBe(404);
    }
  });

  it('has no webhook (404) while BILLING_PROVIDER_WEBHOOK_SECRET is unset', async () => {
    const answer = await call(webhookRoute, 'POST', '/v1/billing/webhook', { rawBody: new TextEncoder().encode('{"id":"evt_1"}'), headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });
});

describe('limits set by the operator (BILLING_PLANS) without a provider', () => {
  it('enforces them: the seat past the limit is refused with the plan and the plan that lifts it', async () => {
    enforcePlanLimits({ free: { seats: 2 }, pro: { seats: 20 } });
    const [owner, a, b] = await Promise.all(['op-o', 'op-a', 'op-b'].map((h) => signIn(h)));
    await team('op-team', owner, [[a, 'member']], 'free');
    const refused = team('op-team2', owner, [[a, 'member'], [b, 'member']], 'free');
    await expect(refused).rejects.toThrow(`has no free seat: it has reached the Free plan's limit of 2 seats. Upgrade to Pro for 20 seats: http://localhost:3000/w/op-team2/billing`);
    const { json } = await state(owner.token, 'op-team');
    expect(json).toMatchObject({ provider: 'none', billingConfigured: false, limits: { seats: 2, rooms: 3, storageBytes: PLAN_LIMITS.free.storageBytes } });
  });
});

describe('requireUnderLimit (rooms, live spaces, live apps)', () => {
  const ws = { slug: 'acme', plan: 'free' as const };
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(403);
      return (error as ApiError).message;
    }
    throw new Error('not refused');
  };

  it('refuses the creation past each limit with 403 naming the limit, the plan and the plan that lifts it', () => {
    enforcePlanLimits();
    expect(refusal(() => requireUnderLimit(ws, 'rooms', 3))).toBe(`"acme" has reached the Free plan's limit of 3 rooms. Upgrade to Pro for 50 rooms: http://localhost:3000/w/acme/billing`);
    expect(refusal(() => requireUnderLimit(ws, 'liveSpaces', 3))).toBe(`"acme" has reached the Free plan's limit of 3 live spaces. Upgrade to Pro for 50 live spaces: http://localhost:3000/w/acme/billing`);
    expect(refusal(() => requireUnderLimit(ws, 'liveApps', 1))).toBe(`"acme" has reached the Free plan's limit of 1 live app. Upgrade to Pro for 10 live apps: http://localhost:3000/w/acme/billing`);
    expect(refusal(() => requireUnderLimit({ slug: 'big', plan: 'team' }, 'liveApps', 100))).toBe(
      `"big" has reached the Team plan's limit of 100 live apps. Upgrade to Enterprise for unlimited live apps: http://localhost:3000/w/big/billing`,
    );
    // Above the limit (after a downgrade) is refused the same way; under it passes.
    expect(refusal(() => requireUnderLimit(ws, 'rooms', 7))).toContain('limit of 3 rooms');
    expect(() => requireUnderLimit(ws, 'rooms', 2)).not.toThrow();
    expect(() => requireUnderLimit({ slug: 'e', plan: 'enterprise' }, 'rooms', 10 ** 6)).not.toThrow();
  });

  it('refuses nothing when the server enforces no limits', () => {
    expect(limitsOf(ws)).toEqual({ seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null, databaseBytes: null });
    expect(() => requireUnderLimit(ws, 'rooms', 10 ** 6)).not.toThrow();
  });

  it('names no upgrade when the operator gives no higher plan more', () => {
    enforcePlanLimits({ free: { rooms: 1 }, pro: { rooms: 1 }, team: { rooms: 1 }, enterprise: { rooms: 1 } });
    expect(refusal(() => requireUnderLimit(ws, 'rooms', 1))).toBe(`"acme" has reached the Free plan's limit of 1 room.`);
  });
});

describe('the operator sets a plan (npm run billing:plan)', () => {
  it('changes the plan, records it in the audit log, and refuses unknown plans and workspaces', async () => {
    const { setPlanByOperator } = await import('@/lib/billing/operator.ts');
    const owner = await signIn('opp-owner');
    await team('opp-team', owner, [], 'free');
    expect(await setPlanByOperator('opp-team', 'enterprise')).toEqual({ from: 'free', to: 'enterprise' });
    expect((await state(owner.token, 'opp-team')).json.plan).toBe('enterprise');
    const event = await db.auditEvent.findFirst({ where: { workspace: { slug: 'opp-team' }, action: 'billing.plan_set' } });
    expect(event?.details).toEqual({ from: 'free', to: 'enterprise', by: 'operator' });
    await expect(setPlanByOperator('opp-team', 'platinum')).rejects.toThrow('No plan "platinum"');
    await expect(setPlanByOperator('nope-team', 'pro')).rejects.toThrow('No workspace "nope-team"');
  });
});
