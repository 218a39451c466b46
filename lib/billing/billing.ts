// A workspace's billing: its state (plan, usage against limits, the waiting
// change), and the owner's or admin's actions through Stripe: checkout,
// the customer portal, and keeping the plan when a change waits.
//
// The plan (`Workspace.plan`) changes only from a subscription Atrium has just
// written or re-read from Stripe, never from what a browser says: an upgrade of
// a paid subscription is applied from Stripe's answer, a first subscription
// from the webhook (lib/billing/webhook.ts) once it is paid for.
import type Stripe from 'stripe';
import type { SignedInCaller } from '../core/caller.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import { workspaceRoleCan } from '../access/capabilities.ts';
import { recordAudit } from '../audit/log.ts';
import { config } from '../config.ts';
import { db, type Prisma } from '../db/client.ts';
import type { Plan } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { log } from '../log.ts';
import type { BillingState } from '../schemas/billing.ts';
import { billingPageUrl, limitsOf, planName, planRank } from './plans.ts';
import { billingConfigured, isGone, planOfPrice, priceOf, stripe } from './stripe.ts';

type Workspace = { id: string; slug: string; name: string; plan: Plan };
type Actor = { id: string; handle: string } | null;


/** Subscriptions that no longer bill: the workspace is back on free. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export async function billingState({ actor }: SignedInCaller, slug: string): Promise<BillingState> {
  const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'view');
  const [account, seats, storage, rooms, liveApps] = await Promise.all([
    db.billingAccount.findUnique({ where: { workspaceId: workspace.id } }),
    db.membership.count({ where: { workspaceId: workspace.id, status: 'accepted' } }),
    db.workspace.findUniqueOrThrow({ where: { id: workspace.id }, select: { storageBytes: true } }),
    db.room.groupBy({ by: ['kind'], where: { workspaceId: workspace.id }, _count: true }),
    // Paused apps keep their place: they count as live, as going live does (lib/apps).
    db.app.count({ where: { status: { in: ['live', 'paused'] }, room: { workspaceId: workspace.id } } }),
  ]);
  const roomsOf = (kind: 'room' | 'live') => rooms.find((r) => r.kind === kind)?._count ?? 0;
  const configured = billingConfigured();
  return {
    plan: workspace.plan,
    status: account?.status ?? 'active',
    renewsAt: account?.subscriptionId ? (account.renewsAt?.getTime() ?? null) : null,
    usage: { seats, rooms: roomsOf('room'), liveSpaces: roomsOf('live'), liveApps, storageBytes: Number(storage.storageBytes) },
    limits: limitsOf(workspace),
    provider: configured ? 'stripe' : 'none',
    billingConfigured: configured,
    canManage: workspaceRoleCan(role, 'admin'),
    scheduled: account?.scheduledPlan && account.scheduledAt ? { plan: account.scheduledPlan, at: account.scheduledAt.getTime() } : null,
  };
}

/** The workspace, for an owner or admin, once billing is known to be configured (400 before the 404/403 otherwise tells nothing). */
async function managed(caller: SignedInCaller, slug: string) {
  const { workspace } = await workspaceAccess(caller.actor.user.id, slug, 'admin');
  const client = stripe();
  const account = await db.billingAccount.findUnique({ where: { workspaceId: workspace.id } });
  return { workspace, client, account, actor: { id: caller.actor.user.id, handle: caller.actor.user.handle } };
}

const periodEnd = (sub: Stripe.Subscription): number | null => sub.items.data[0]?.current_period_end ?? null;
const scheduleIdOf = (sub: Stripe.Subscription) => (typeof sub.schedule === 'string' ? sub.schedule : (sub.schedule?.id ?? null));

/** A subscription that bills: one to change rather than to start anew. */
async function liveSubscription(client: Stripe, account: { subscriptionId: string | null } | null): Promise<Stripe.Subscription | null> {
  if (!account?.subscriptionId) return null;
  const sub = await client.subscriptions.retrieve(account.subscriptionId);
  return ENDED.has(sub.status) ? null : sub;
}

/** The customer of the workspace, created once (the idempotency key makes two racing requests get the same one). */
async function customerOf(client: Stripe, workspace: Workspace, account: { customerId: string | null } | null): Promise<string> {
  if (account?.customerId) return account.customerId;
  const customer = await client.customers.create(
    { name: workspace.name, metadata: { atrium_workspace: workspace.id, atrium_slug: workspace.slug } },
    { idempotencyKey: `atrium-customer-${workspace.id}` },
  );
  await db.billingAccount.upsert({
    where: { workspaceId: workspace.id },
    create: { workspaceId: workspace.id, customerId: customer.id },
    update: { customerId: customer.id },
  });
  return customer.id;
}

/** The subscription's schedule; null when Stripe no longer has it (then nothing waits). */
async function retrieveSchedule(client: Stripe, id: string, subscriptionId: string): Promise<Stripe.SubscriptionSchedule | null> {
  try {
    return await client.subscriptionSchedules.retrieve(id);
  } catch (error) {
    if (!isGone(error)) throw error;
    log.warn('billing: a subscription names a schedule Stripe does not know; no change is waiting', { subscription: subscriptionId, schedule: id });
    return null;
  }
}

/**
 * What a re-read subscription says about the workspace: its plan, status,
 * renewal and the change waiting for the period's end (a cancellation, or
 * the next phase of its schedule).
 */
export async function subscriptionFacts(client: Stripe, sub: Stripe.Subscription) {
  const ended = ENDED.has(sub.status);
  const renews = periodEnd(sub);
  let scheduled: { plan: Plan; at: Date } | null = null;
  if (!ended && sub.cancel_at_period_end) {
    scheduled = { plan: 'free', at: new Date((sub.cancel_at ?? renews ?? 0) * 1000) };
  } else if (!ended && scheduleIdOf(sub)) {
    const schedule = await retrieveSchedule(client, scheduleIdOf(sub)!, sub.id);
    const now = Date.now() / 1000;
    const next = schedule?.status === 'active' || schedule?.status === 'not_started' ? schedule.phases.find((p) => p.start_date > now) : undefined;
    const plan = next ? planOfPrice(next.items[0]?.price as Stripe.Price | string) : null;
    if (next && plan) scheduled = { plan, at: new Date(next.start_date * 1000) };
  }
  // A subscription to a price Atrium does not know keeps the plan it had (logged by the caller).
  const plan: Plan | null = ended ? 'free' : planOfPrice(sub.items.data[0]?.price);
  return {
    plan,
    status: sub.status as string,
    renewsAt: !ended && renews ? new Date(renews * 1000) : null,
    scheduled,
    subscriptionId: ended ? null : sub.id,
  };
}

export type Facts = Awaited<ReturnType<typeof subscriptionFacts>>;

/**
 * Writes what Stripe says into the workspace (in `tx`, with the audit events
 * of what changed). Facts about a subscription that is not the workspace's
 * current one are ignored when that one still bills: an old subscription's
 * late "deleted" must not cancel the new plan.
 */
export async function applyFacts(tx: Prisma.TransactionClient, workspace: Workspace, sub: Stripe.Subscription, facts: Facts, actor: Actor, customerId: string | null) {
  await tx.$queryRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspace.id} FOR UPDATE`;
  const [current, account] = await Promise.all([
    tx.workspace.findUniqueOrThrow({ where: { id: workspace.id }, select: { plan: true } }),
    tx.billingAccount.findUnique({ where: { workspaceId: workspace.id } }),
  ]);
  if (account?.subscriptionId && account.subscriptionId !== sub.id && account.status !== 'canceled' && facts.subscriptionId === null) return;
  const plan = facts.plan ?? current.plan;
  const data = {
    customerId: customerId ?? account?.customerId ?? null,
    subscriptionId: facts.subscriptionId,
    status: facts.status,
    renewsAt: facts.renewsAt,
    scheduledPlan: facts.scheduled?.plan ?? null,
    scheduledAt: facts.scheduled?.at ?? null,
  };
  await tx.billingAccount.upsert({ where: { workspaceId: workspace.id }, create: { workspaceId: workspace.id, ...data }, update: data });
  const target = { type: 'workspace', id: workspace.id, label: workspace.slug };
  if (plan !== current.plan) {
    await tx.workspace.update({ where: { id: workspace.id }, data: { plan } });
    await recordAudit(tx, { workspaceId: workspace.id, actor, action: 'billing.plan_changed', target, details: { from: current.plan, to: plan, subscription: sub.id } });
  }
  if (account && account.status !== facts.status) {
    await recordAudit(tx, { workspaceId: workspace.id, actor, action: 'billing.status_changed', target, details: { from: account.status, to: facts.status, subscription: sub.id } });
  }
  const wasScheduled = account?.scheduledPlan ?? null;
  if ((facts.scheduled?.plan ?? null) !== wasScheduled || (facts.scheduled && account?.scheduledAt?.getTime() !== facts.scheduled.at.getTime())) {
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor,
      action: facts.scheduled ? 'billing.change_scheduled' : 'billing.change_cancelled',
      target,
      details: facts.scheduled ? { plan: facts.scheduled.plan, at: facts.scheduled.at.getTime() } : { plan: wasScheduled },
    });
  }
}

/** Re-reads the subscription from Stripe and applies it. */
async function refresh(client: Stripe, workspace: Workspace, subscriptionId: string, actor: Actor) {
  const sub = await client.subscriptions.retrieve(subscriptionId);
  const facts = await subscriptionFacts(client, sub);
  const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
  await db.$transaction((tx) => applyFacts(tx, workspace, sub, facts, actor, customerId));
}

/** Drops a waiting change on Stripe's side: the schedule is released, a cancellation withdrawn. */
async function dropWaitingChange(client: Stripe, sub: Stripe.Subscription) {
  const scheduleId = scheduleIdOf(sub);
  if (scheduleId) await client.subscriptionSchedules.release(scheduleId);
  if (sub.cancel_at_period_end) await client.subscriptions.update(sub.id, { cancel_at_period_end: false });
}

/**
 * POST …/billing/checkout. Upgrades take effect now (from free through a
 * Checkout Session, since a card is needed; a paid subscription is changed
 * with proration); downgrades and free wait for the period's end.
 */
export async function checkout(caller: SignedInCaller, slug: string, plan: Exclude<Plan, 'enterprise'>): Promise<{ url: string }> {
  const { workspace, client, account, actor } = await managed(caller, slug);
  const page = billingPageUrl(workspace.slug);
  const sub = await liveSubscription(client, account);
  if (!sub && workspace.plan === 'enterprise') {
    throw new ApiError('bad_request', `"${workspace.slug}" is on the Enterprise plan, set by this server's operator; ask them to change it.`);
  }
  if (plan === workspace.plan) {
    // Choosing the plan one is on again keeps it: a waiting change is dropped.
    if (sub && (account?.scheduledPlan || sub.cancel_at_period_end || scheduleIdOf(sub))) {
      await dropWaitingChange(client, sub);
      await refresh(client, workspace, sub.id, actor);
    }
    return { url: page };
  }
  if (planRank(plan) > planRank(workspace.plan)) {
    const price = priceOf(plan)!;
    if (!sub) {
      const customer = await customerOf(client, workspace, account);
      const session = await client.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: workspace.id,
        line_items: [{ price, quantity: 1 }],
        success_url: `${page}?checkout=done`,
        cancel_url: page,
        metadata: { atrium_workspace: workspace.id },
        subscription_data: { metadata: { atrium_workspace: workspace.id } },
      });
      if (!session.url) throw new ApiError('unavailable', 'Stripe did not return a payment page; try again.');
      await db.$transaction((tx) =>
        recordAudit(tx, { workspaceId: workspace.id, actor, action: 'billing.checkout_started', target: { type: 'workspace', id: workspace.id, label: workspace.slug }, details: { plan } }),
      );
      return { url: session.url };
    }
    await dropWaitingChange(client, sub);
    const item = sub.items.data[0];
    await client.subscriptions.update(sub.id, {
      items: [{ id: item.id, price, quantity: 1 }],
      proration_behavior: 'always_invoice',
      metadata: { atrium_workspace: workspace.id },
    });
    await refresh(client, workspace, sub.id, actor);
    return { url: page };
  }
  // A lower plan: nothing changes before the period's end.
  if (!sub) throw new ApiError('bad_request', `"${workspace.slug}" has no subscription to change; its plan was set by this server's operator.`);
  if (plan === 'free') {
    const scheduleId = scheduleIdOf(sub);
    if (scheduleId) await client.subscriptionSchedules.release(scheduleId);
    await client.subscriptions.update(sub.id, { cancel_at_period_end: true });
  } else {
    if (sub.cancel_at_period_end) await client.subscriptions.update(sub.id, { cancel_at_period_end: false });
    const scheduleId = scheduleIdOf(sub) ?? (await client.subscriptionSchedules.create({ from_subscription: sub.id })).id;
    const schedule = await client.subscriptionSchedules.retrieve(scheduleId);
    const now = schedule.phases.find((p) => p.start_date <= Date.now() / 1000 && (!p.end_date || p.end_date > Date.now() / 1000)) ?? schedule.phases[0];
    const currentPrice = sub.items.data[0].price.id;
    await client.subscriptionSchedules.update(scheduleId, {
      end_behavior: 'release',
      proration_behavior: 'none',
      phases: [
        { items: [{ price: currentPrice, quantity: 1 }], start_date: now.start_date, end_date: now.end_date },
        { items: [{ price: priceOf(plan)!, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
      ],
    });
  }
  await refresh(client, workspace, sub.id, actor);
  return { url: page };
}

/** POST …/billing/keep: cancels the change waiting for the period's end. */
export async function keepPlan(caller: SignedInCaller, slug: string): Promise<{ url: string }> {
  const { workspace, client, account, actor } = await managed(caller, slug);
  if (workspace.plan === 'free') throw new ApiError('bad_request', `"${workspace.slug}" is on the Free plan: there is no plan to keep.`);
  const sub = await liveSubscription(client, account);
  if (sub) {
    await dropWaitingChange(client, sub);
    await refresh(client, workspace, sub.id, actor);
  }
  return { url: billingPageUrl(workspace.slug) };
}

/** POST …/billing/portal: Stripe's customer portal (invoices, card, cancellation). */
export async function portal(caller: SignedInCaller, slug: string): Promise<{ url: string }> {
  const { workspace, client, account } = await managed(caller, slug);
  const customer = await customerOf(client, workspace, account);
  const session = await client.billingPortal.sessions.create({ customer, return_url: billingPageUrl(workspace.slug) });
  return { url: session.url };
}
