// POST /v1/billing/webhook: Stripe's events. Stripe delivers each event at
// least once and in any order, so:
// - the signature is checked on the raw bytes (400 when it does not match);
// - the event's id is stored in the transaction that applies it: a replay
//   finds it and changes nothing, and two deliveries racing serialise on it;
// - no event's payload is trusted for the plan: the subscription it is about
//   is re-read from Stripe and the workspace set to what Stripe says now, so
//   an older event arriving late writes the newer state, not its own.
import type Stripe from 'stripe';
import { recordAudit } from '../audit/log.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { IncomingBody } from '../core/body.ts';
import { ApiError } from '../core/errors.ts';
import { log } from '../log.ts';
import { applyFacts, subscriptionFacts } from './billing.ts';
import { isGone, stripe, webhooks } from './stripe.ts';

/** Stripe's events are small; anything larger is not one. */
const MAX_EVENT_BYTES = 512 * 1024;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** The subscription an event is about, and the workspace it names (metadata), if any. */
function subjectOf(event: Stripe.Event): { subscriptionId: string | null; workspaceId: string | null; customerId: string | null } {
  const object = event.data.object as unknown as Record<string, any>;
  switch (event.type) {
    case 'checkout.session.completed':
      return { subscriptionId: idOf(object.subscription), workspaceId: object.client_reference_id ?? object.metadata?.atrium_workspace ?? null, customerId: idOf(object.customer) };
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return { subscriptionId: object.id, workspaceId: object.metadata?.atrium_workspace ?? null, customerId: idOf(object.customer) };
    case 'invoice.payment_failed':
    case 'invoice.paid':
      return {
        subscriptionId: idOf(object.parent?.subscription_details?.subscription ?? object.subscription),
        workspaceId: object.parent?.subscription_details?.metadata?.atrium_workspace ?? null,
        customerId: idOf(object.customer),
      };
    default:
      return { subscriptionId: null, workspaceId: null, customerId: null };
  }
}

/**
 * The subscription as Stripe has it now; null when Stripe does not know it
 * (deleted since, or of another account sharing the endpoint): the event is
 * then recorded and acknowledged with nothing to apply, since a failure would
 * only make Stripe retry it for days.
 */
async function retrieveSubscription(client: Stripe, id: string, eventId: string): Promise<Stripe.Subscription | null> {
  try {
    return await client.subscriptions.retrieve(id);
  } catch (error) {
    if (!isGone(error)) throw error;
    log.warn('billing: an event about a subscription Stripe does not know; acknowledged, nothing applied', { subscription: id, event: eventId });
    return null;
  }
}

async function readEvent(body: IncomingBody): Promise<Buffer> {
  const tooLarge = () => new ApiError('too_large', `A billing event is at most ${MAX_EVENT_BYTES / 1024} KiB.`);
  if (body.length !== null && body.length > MAX_EVENT_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body.stream) {
    for await (const chunk of body.stream) {
      total += chunk.byteLength;
      if (total > MAX_EVENT_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

export async function receiveWebhook(body: IncomingBody, signature: string | null): Promise<{ received: true; duplicate: boolean }> {
  const secret = config.billing.webhookSecret;
  if (!secret) throw new ApiError('not_found', 'No billing webhook on this server (BILLING_PROVIDER_WEBHOOK_SECRET is unset).');
  const bytes = await readEvent(body);
  if (!signature) throw new ApiError('bad_request', 'The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = webhooks().constructEvent(bytes, signature, secret);
  } catch {
    throw new ApiError('bad_request', 'The Stripe-Signature header does not match this body (wrong signing secret, altered body, or an old timestamp).');
  }
  if (await db.billingEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { received: true, duplicate: true };

  const subject = subjectOf(event);
  // Re-read the subscription now: its state, not the event's, is applied.
  const client = subject.subscriptionId ? stripe() : null;
  const sub = client && subject.subscriptionId ? await retrieveSubscription(client, subject.subscriptionId, event.id) : null;
  const facts = client && sub ? await subscriptionFacts(client, sub) : null;
  const customerId = sub ? idOf(sub.customer) : subject.customerId;
  const workspaceId = sub?.metadata?.atrium_workspace ?? subject.workspaceId ?? (customerId ? (await db.billingAccount.findUnique({ where: { customerId } }))?.workspaceId : null) ?? null;
  const workspace = workspaceId ? await db.workspace.findUnique({ where: { id: workspaceId }, select: { id: true, slug: true, name: true, plan: true } }) : null;
  if (facts && sub && facts.plan === null) log.warn('billing: a subscription to a price Atrium does not know', { subscription: sub.id, event: event.id });

  const applied = await db.$transaction(async (tx) => {
    // The id first: a concurrent delivery of the same event waits here, then finds it and stops.
    const inserted = await tx.$executeRaw`
      INSERT INTO "BillingEvent" ("id", "type", "workspaceId") VALUES (${event.id}, ${event.type}, ${workspace?.id ?? null})
      ON CONFLICT ("id") DO NOTHING`;
    if (!inserted) return false;
    if (!workspace) return true;
    const target = { type: 'workspace', id: workspace.id, label: workspace.slug };
    if (sub && facts) await applyFacts(tx, workspace, sub, facts, null, customerId);
    if (event.type === 'checkout.session.completed') {
      await recordAudit(tx, { workspaceId: workspace.id, actor: null, action: 'billing.checkout_completed', target, details: { subscription: sub?.id ?? null, plan: facts?.plan ?? null } });
    }
    if (event.type === 'invoice.payment_failed') {
      const invoice = event.data.object as Stripe.Invoice;
      await recordAudit(tx, {
        workspaceId: workspace.id,
        actor: null,
        action: 'billing.payment_failed',
        target,
        details: { invoice: invoice.id ?? null, amountDue: invoice.amount_due ?? null, status: facts?.status ?? null },
      });
    }
    return true;
  });
  return { received: true, duplicate: !applied };
}
