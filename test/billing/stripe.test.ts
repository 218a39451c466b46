// Billing with Stripe, against a local stand-in of its API reached by the real
// SDK; webhook events are signed with the SDK's generateTestHeaderString.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as webhookRoute } from '@/app/v1/billing/webhook/route.ts';
import { GET as auditRoute } from '@/app/v1/workspaces/[slug]/audit/route.ts';
import { POST as checkoutRoute } from '@/app/v1/workspaces/[slug]/billing/checkout/route.ts';
import { POST as acceptRoute } from '@/app/v1/workspaces/[slug]/accept/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { POST as keepRoute } from '@/app/v1/workspaces/[slug]/billing/keep/route.ts';
import { POST as portalRoute } from '@/app/v1/workspaces/[slug]/billing/portal/route.ts';
import { GET as stateRoute } from '@/app/v1/workspaces/[slug]/billing/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';
import { PRICES, SECRET_KEY, StripeStandIn, WEBHOOK_SECRET } from '../stripe-stand-in.ts';
import { team, type Person } from '../workspaces/helpers.ts';

/** Billing configured against a stand-in for the calling file's tests (reset to "no provider" after them). */
function useStripeStandIn() {
  const stand = new StripeStandIn();
  const before = structuredClone(config.billing);
  beforeAll(async () => {
    await stand.start();
    config.billing = { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, prices: { ...PRICES }, apiUrl: stand.url };
  });
  afterEach(() => {
    stand.failWith = null;
    stand.gone.clear();
  });
  afterAll(async () => {
    config.billing = before;
    await stand.stop();
  });
  return stand;
}

const stand = useStripeStandIn();

const state = (who: Person, slug: string) => call(stateRoute, 'GET', `/v1/workspaces/${slug}/billing`, { token: who.token, params: { slug } });
const checkout = (who: Person, slug: string, plan: string) =>
  call(checkoutRoute, 'POST', `/v1/workspaces/${slug}/billing/checkout`, { token: who.token, params: { slug }, body: { plan } });
const keep = (who: Person, slug: string) => call(keepRoute, 'POST', `/v1/workspaces/${slug}/billing/keep`, { token: who.token, params: { slug } });
const portal = (who: Person, slug: string) => call(portalRoute, 'POST', `/v1/workspaces/${slug}/billing/portal`, { token: who.token, params: { slug } });
const deliver = (event: { payload: string; header: string }) =>
  call(webhookRoute, 'POST', '/v1/billing/webhook', { rawBody: new TextEncoder().encode(event.payload), headers: { 'stripe-signature': event.header, 'content-type': 'application/json' } });
const actions = async (owner: Person, slug: string) =>
  ((await call(auditRoute, 'GET', `/v1/workspaces/${slug}/audit`, { token: owner.token, params: { slug } })).json.events as { action: string }[])
    .map((e) => e.action)
    .filter((a) => a.startsWith('billing.'));
const page = (slug: string) => `http://localhost:3000/w/${slug}/billing`;

/** A workspace that went through checkout for `plan`: the subscription Stripe made and the completion event delivered. */
async function paid(slug: string, owner: Person, plan: 'pro' | 'team' | 'enterprise') {
  await team(slug, owner, [], 'free');
  const started = await checkout(owner, slug, 'pro');
  expect(started.status).toBe(200);
  const ws = await db.workspace.findUniqueOrThrow({ where: { slug }, include: { billingAccount: true } });
  const sub = stand.subscribe(ws.billingAccount!.customerId!, plan, ws.id);
  const done = await deliver(stand.event('checkout.session.completed', { id: 'cs_x', object: 'checkout.session', client_reference_id: ws.id, customer: sub.customer, subscription: sub.id, metadata: {} }));
  expect(done.status).toBe(200);
  return { ws, sub };
}

describe('billing state with Stripe', () => {
  it("shows the plan's limits and usage to members; only owners and admins can manage", async () => {
    const [owner, admin, member] = await Promise.all(['st-o', 'st-a', 'st-m'].map((h) => signIn(h)));
    await team('st-state', owner, [[admin, 'admin'], [member, 'member']], 'free');
    const forMember = await state(member, 'st-state');
    expect(forMember.status).toBe(200);
    expect(forMember.json).toMatchObject({
      plan: 'free',
      status: 'active',
      renewsAt: null,
      usage: { seats: 3, rooms: 0, liveSpaces: 0, liveApps: 0, storageBytes: 0 },
      limits: { seats: 3, rooms: 3, liveSpaces: 3, liveApps: 1, storageBytes: 1024 ** 3 },
      provider: 'stripe',
      billingConfigured: true,
      canManage: false,
      scheduled: null,
    });
    expect((await state(owner, 'st-state')).json.canManage).toBe(true);
    expect((await state(admin, 'st-state')).json.canManage).toBe(true);
  });

  it('refuses the seat past the free plan with 403 naming the plan that lifts it', async () => {
    const people = await Promise.all(['st-s1', 'st-s2', 'st-s3', 'st-s4'].map((h) => signIn(h)));
    const [owner, ...rest] = people;
    await expect(team('st-seats', owner, rest.map((p) => [p, 'member'] as const), 'free')).rejects.toThrow(
      `has no free seat: it has reached the Free plan's limit of 3 seats. Upgrade to Pro for 10 seats: http://localhost:3000/w/st-seats/billing`,
    );
  });
});

describe('checkout, keep and portal', () => {
  it('sends a free workspace to a Checkout Session, and applies the plan once the webhook says it is paid', async () => {
    const owner = await signIn('co-owner');
    await team('co-free', owner, [], 'free');
    const started = await checkout(owner, 'co-free', 'pro');
    expect(started.status).toBe(200);
    expect(started.json.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_/);
    const session = stand.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(session.body).toMatchObject({ mode: 'subscription', line_items: [{ price: 'price_pro_test', quantity: '1' }], success_url: `${page('co-free')}?checkout=done` });
    expect(stand.requests.findLast((r) => r.path === '/v1/customers')!.idempotencyKey).toMatch(/^atrium-customer-ws_/);
    // Nothing is paid yet.
    expect((await state(owner, 'co-free')).json.plan).toBe('free');

    const ws = await db.workspace.findUniqueOrThrow({ where: { slug: 'co-free' }, include: { billingAccount: true } });
    const sub = stand.subscribe(ws.billingAccount!.customerId!, 'pro', ws.id);
    const event = stand.event('checkout.session.completed', { id: 'cs_1', object: 'checkout.session', client_reference_id: ws.id, customer: sub.customer, subscription: sub.id });
    const first = await deliver(event);
    expect(first.json).toEqual({ received: true, duplicate: false });
    const after = (await state(owner, 'co-free')).json;
    expect(after).toMatchObject({ plan: 'pro', status: 'active', renewsAt: sub.items.data[0].current_period_end * 1000, limits: { seats: 10 } });
    expect(await actions(owner, 'co-free')).toEqual(['billing.checkout_completed', 'billing.plan_changed', 'billing.checkout_started']);

    // The same event again (Stripe retries): acknowledged, nothing changes, nothing is recorded twice.
    const replay = await deliver(event);
    expect(replay.status).toBe(200);
    expect(replay.json.duplicate).toBe(true);
    expect(await actions(owner, 'co-free')).toHaveLength(3);
    expect(await db.billingEvent.count({ where: { id: event.id } })).toBe(1);
  });

  it('upgrades a paid subscription now, with proration, and answers the billing page', async () => {
    const owner = await signIn('up-owner');
    const { sub } = await paid('up-team', owner, 'pro');
    const upgraded = await checkout(owner, 'up-team', 'team');
    expect(upgraded.status).toBe(200);
    expect(upgraded.json.url).toBe(page('up-team'));
    const update = stand.requests.findLast((r) => r.path === `/v1/subscriptions/${sub.id}` && r.method === 'POST')!;
    expect(update.body).toMatchObject({ proration_behavior: 'always_invoice', items: [{ price: 'price_team_test' }] });
    expect((await state(owner, 'up-team')).json).toMatchObject({ plan: 'team', scheduled: null, limits: { seats: 50 } });
  });

  it('waits for the period end to downgrade (a schedule), shows it in scheduled, and keep cancels it', async () => {
    const owner = await signIn('dn-owner');
    const { sub } = await paid('dn-team', owner, 'team');
    const end = sub.items.data[0].current_period_end * 1000;
    const down = await checkout(owner, 'dn-team', 'pro');
    expect(down.status).toBe(200);
    expect((await state(owner, 'dn-team')).json).toMatchObject({ plan: 'team', scheduled: { plan: 'pro', at: end } });
    expect(stand.subscriptions.get(sub.id)!.schedule).toMatch(/^sub_sched_/);

    const kept = await keep(owner, 'dn-team');
    expect(kept.status).toBe(200);
    expect((await state(owner, 'dn-team')).json).toMatchObject({ plan: 'team', scheduled: null });
    expect(stand.subscriptions.get(sub.id)!.schedule).toBeNull();

    // Downgrade again and let the period end: Stripe moves the subscription, the webhook follows.
    await checkout(owner, 'dn-team', 'pro');
    stand.endPeriod(sub.id);
    await deliver(stand.event('customer.subscription.updated', sub));
    expect((await state(owner, 'dn-team')).json).toMatchObject({ plan: 'pro', scheduled: null });
    expect(await actions(owner, 'dn-team')).toContain('billing.change_cancelled');
  });

  it('cancels at the period end for free; the deletion event makes the workspace free', async () => {
    const owner = await signIn('fr-owner');
    const { sub } = await paid('fr-team', owner, 'pro');
    await checkout(owner, 'fr-team', 'free');
    expect(stand.subscriptions.get(sub.id)!.cancel_at_period_end).toBe(true);
    expect((await state(owner, 'fr-team')).json).toMatchObject({ plan: 'pro', scheduled: { plan: 'free', at: sub.items.data[0].current_period_end * 1000 } });
    stand.endPeriod(sub.id);
    await deliver(stand.event('customer.subscription.deleted', sub));
    expect((await state(owner, 'fr-team')).json).toMatchObject({ plan: 'free', status: 'canceled', scheduled: null, renewsAt: null });
  });

  it('answers keep on the free plan with 400, and checkout as a member 403, as an outsider 404', async () => {
    const [owner, member, outsider] = await Promise.all(['kp-o', 'kp-m', 'kp-x'].map((h) => signIn(h)));
    await team('kp-free', owner, [[member, 'member']], 'free');
    const refused = await keep(owner, 'kp-free');
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('Free plan');
    expect((await checkout(member, 'kp-free', 'pro')).status).toBe(403);
    expect((await checkout(outsider, 'kp-free', 'pro')).status).toBe(404);
    expect((await checkout(owner, 'kp-free', 'enterprise')).status).toBe(400);
  });

  it('opens the customer portal for the workspace customer', async () => {
    const owner = await signIn('po-owner');
    const { ws } = await paid('po-team', owner, 'pro');
    const answer = await portal(owner, 'po-team');
    expect(answer.status).toBe(200);
    expect(answer.json.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const request = stand.requests.findLast((r) => r.path === '/v1/billing_portal/sessions')!;
    expect(request.body).toEqual({ customer: ws.billingAccount!.customerId, return_url: page('po-team') });
  });
});

describe('the webhook', () => {
  it('refuses a bad signature, a body changed after signing and a missing signature with 400; nothing is applied', async () => {
    const owner = await signIn('sg-owner');
    await team('sg-team', owner, [], 'free');
    const ws = await db.workspace.findUniqueOrThrow({ where: { slug: 'sg-team' } });
    const sub = stand.subscribe('cus_forged', 'team', ws.id);
    const event = stand.event('customer.subscription.created', sub);
    const forged = await call(webhookRoute, 'POST', '/v1/billing/webhook', { rawBody: new TextEncoder().encode(event.payload), headers: { 'stripe-signature': event.header.replace(/v1=\w+/, `v1=${'0'.repeat(64)}`) } });
    expect(forged.status).toBe(400);
    const altered = await call(webhookRoute, 'POST', '/v1/billing/webhook', { rawBody: new TextEncoder().encode(event.payload.replace('"active"', '"trialing"')), headers: { 'stripe-signature': event.header } });
    expect(altered.status).toBe(400);
    const missing = await call(webhookRoute, 'POST', '/v1/billing/webhook', { rawBody: new TextEncoder().encode(event.payload) });
    expect(missing.status).toBe(400);
    expect(await db.billingEvent.count({ where: { id: event.id } })).toBe(0);
    expect((await state(owner, 'sg-team')).json.plan).toBe('free');
  });

  it('applies what Stripe says now, not what a late event says: events out of order change nothing back', async () => {
    const owner = await signIn('oo-owner');
    const { ws, sub } = await paid('oo-team', owner, 'pro');
    const created = stand.event('customer.subscription.created', structuredClone(sub)); // says pro
    // Meanwhile the plan went up to team.
    await checkout(owner, 'oo-team', 'team');
    const updated = stand.event('customer.subscription.updated', structuredClone(stand.subscriptions.get(sub.id)!));
    await deliver(updated);
    await deliver(created); // late
    expect((await state(owner, 'oo-team')).json.plan).toBe('team');

    // A new subscription replaces one that was cancelled; the old one's late deletion does not make the workspace free.
    const old = stand.subscribe(ws.billingAccount!.customerId!, 'pro', ws.id, 'canceled');
    await deliver(stand.event('customer.subscription.deleted', old));
    expect((await state(owner, 'oo-team')).json).toMatchObject({ plan: 'team', status: 'active' });
  });

  it('shows a failed payment as past_due, records it, and recovers when paid', async () => {
    const owner = await signIn('pd-owner');
    const { sub } = await paid('pd-team', owner, 'pro');
    stand.subscriptions.get(sub.id)!.status = 'past_due';
    const invoice = { id: 'in_1', object: 'invoice', customer: sub.customer, amount_due: 1200, parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: {} } } };
    expect((await deliver(stand.event('invoice.payment_failed', invoice))).status).toBe(200);
    expect((await state(owner, 'pd-team')).json).toMatchObject({ plan: 'pro', status: 'past_due' });
    expect((await actions(owner, 'pd-team')).slice(0, 2)).toEqual(['billing.payment_failed', 'billing.status_changed']);
    stand.subscriptions.get(sub.id)!.status = 'active';
    await deliver(stand.event('invoice.paid', invoice));
    expect((await state(owner, 'pd-team')).json.status).toBe('active');
  });

  it('reaches enterprise through a price marked atrium_plan=enterprise', async () => {
    const owner = await signIn('en-owner');
    await paid('en-team', owner, 'enterprise');
    expect((await state(owner, 'en-team')).json).toMatchObject({ plan: 'enterprise', limits: { seats: null, rooms: null, storageBytes: null } });
  });

  it('acknowledges events it does not act on, once', async () => {
    const event = stand.event('customer.created', { id: 'cus_other', object: 'customer' });
    expect((await deliver(event)).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(event)).json).toEqual({ received: true, duplicate: true });
  });

  it('acknowledges an event about a subscription Stripe does not know (deleted, or of another account) instead of failing, so it is not retried for days', async () => {
    const ghost = { id: 'sub_unknown_to_stripe', object: 'subscription', customer: 'cus_nobody', status: 'active', metadata: {}, items: { data: [] } };
    const event = stand.event('customer.subscription.updated', ghost);
    const answer = await deliver(event);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true, duplicate: false });
    expect((await deliver(event)).json).toEqual({ received: true, duplicate: true });
  });

  it('acknowledges, and logs once, an event whose subscription or schedule Stripe answers 404 for without an error code', async () => {
    const owner = await signIn('gone-owner');
    const { sub } = await paid('gone-team', owner, 'team');
    const lines = await logged(async () => {
      stand.gone.add(sub.id);
      const answer = await deliver(stand.event('customer.subscription.updated', sub));
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ received: true, duplicate: false });
    });
    expect(lines.filter((l) => l.level !== 'info').map((l) => [l.level, l.subscription])).toEqual([['warn', sub.id]]);
    expect((await state(owner, 'gone-team')).json.plan).toBe('team');

    // A downgrade waits in a schedule; the schedule gone, the subscription's state still applies.
    stand.gone.clear();
    await checkout(owner, 'gone-team', 'pro');
    const schedule = stand.subscriptions.get(sub.id)!.schedule as string;
    const scheduled = await logged(async () => {
      stand.gone.add(schedule);
      const answer = await deliver(stand.event('customer.subscription.updated', sub));
      expect(answer.status).toBe(200);
    });
    expect(scheduled.filter((l) => l.level !== 'info').map((l) => [l.level, l.schedule])).toEqual([['warn', schedule]]);
    expect((await state(owner, 'gone-team')).json).toMatchObject({ plan: 'team', scheduled: null });
  });
});

/** The log lines written while `run` runs. */
async function logged(run: () => Promise<void>): Promise<Record<string, string>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((line) => line.split('\n')).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
}

describe('a downgrade below usage', () => {
  it('deletes nobody and blocks new members until usage is under the limit', async () => {
    const people = await Promise.all(['bl-o', 'bl-1', 'bl-2', 'bl-3', 'bl-4', 'bl-5'].map((h) => signIn(h)));
    const [owner, a, b, c, d, late] = people;
    const { sub } = await paid('bl-team', owner, 'pro');
    const p = { slug: 'bl-team' };
    for (const person of [a, b, c, d]) {
      await call(inviteRoute, 'POST', '/v1/workspaces/bl-team/members', { token: owner.token, params: p, body: { handle: person.user.handle, role: 'member' } });
      expect((await call(acceptRoute, 'POST', '/v1/workspaces/bl-team/accept', { token: person.token, params: p })).status).toBe(204);
    }
    await checkout(owner, 'bl-team', 'free');
    stand.endPeriod(sub.id);
    await deliver(stand.event('customer.subscription.deleted', sub));
    const after = (await state(owner, 'bl-team')).json;
    expect(after).toMatchObject({ plan: 'free', usage: { seats: 5 }, limits: { seats: 3 } });
    expect(await db.membership.count({ where: { workspace: { slug: 'bl-team' }, status: 'accepted' } })).toBe(5);
    expect((await call(inviteRoute, 'POST', '/v1/workspaces/bl-team/members', { token: owner.token, params: p, body: { handle: late.user.handle, role: 'member' } })).status).toBe(204);
    const refused = await call(acceptRoute, 'POST', '/v1/workspaces/bl-team/accept', { token: late.token, params: p });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("the Free plan's limit of 3 seats. Upgrade to Pro for 10 seats: http://localhost:3000/w/bl-team/billing");
  });
});
