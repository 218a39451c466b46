import { z } from 'zod';
import { text, timestamp } from './common.ts';
import { endpoint } from './endpoint.ts';

const plan = z.enum(['free', 'pro', 'team', 'enterprise']);
const count = z.number().int().min(0);
const limit = count.nullable();

export const billingState = z
  .object({
    plan,
    status: z.string().meta({ description: "The subscription's status at the provider: active, trialing, past_due, unpaid, paused, incomplete, canceled; active without one." }),
    renewsAt: timestamp.nullable().meta({ description: 'End of the paid period; null without a subscription.' }),
    usage: z
      .object({ seats: count, rooms: count, liveSpaces: count, liveApps: count, storageBytes: count })
      .meta({ id: 'BillingUsage', description: 'Accepted members, rooms, live spaces, live apps and stored bytes.' }),
    limits: z
      .object({ seats: limit, rooms: limit, liveSpaces: limit, liveApps: limit, storageBytes: limit, databaseBytes: limit })
      .meta({ id: 'BillingLimits', description: 'The limits of the plan on this server; null is unlimited (all null when the server enforces none).' }),
    provider: z.enum(['none', 'stripe']),
    billingConfigured: z.boolean().meta({ description: 'Whether checkout, portal and keep work here (BILLING_PROVIDER_SECRET_KEY is set).' }),
    canManage: z.boolean().meta({ description: 'Whether the caller may manage billing (an owner or admin); with `billingConfigured` false there is nothing to manage yet.' }),
    scheduled: z
      .object({ plan, at: timestamp })
      .nullable()
      .meta({ description: "A change waiting for the period's end (a lower plan, or free: a cancellation); null when none." }),
  })
  .meta({ id: 'BillingState' });

export type BillingState = z.input<typeof billingState>;

const slugParams = z.object({ slug: text().min(1).max(100).meta({ description: 'A workspace slug.' }) });
const url = z.object({ url: z.string() });
const tag = 'Billing';

export const billingApi = {
  state: endpoint({
    method: 'GET',
    path: '/v1/workspaces/{slug}/billing',
    tag,
    summary: "The workspace's plan, usage, limits and waiting change (members)",
    auth: 'user',
    params: slugParams,
    response: billingState,
    errors: [401, 404],
  }),
  checkout: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/billing/checkout',
    tag,
    summary:
      "Change the plan (owner or admin): an upgrade from free returns a payment page's URL, an upgrade of a paid plan takes effect now (prorated) and returns the billing page's; a lower plan or free waits for the period's end",
    auth: 'user',
    params: slugParams,
    body: z.object({ plan: z.enum(['free', 'pro', 'team']) }),
    response: url,
    errors: [400, 401, 403, 404],
  }),
  portal: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/billing/portal',
    tag,
    summary: "The billing provider's customer portal (owner or admin): invoices, payment method",
    auth: 'user',
    params: slugParams,
    response: url,
    errors: [400, 401, 403, 404],
  }),
  keep: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/billing/keep',
    tag,
    summary: "Keep the current plan (owner or admin): cancels a change waiting for the period's end; 400 on free",
    auth: 'user',
    params: slugParams,
    response: url,
    errors: [400, 401, 403, 404],
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/v1/billing/webhook',
    tag,
    summary: 'Events from the billing provider (Stripe), signed; 404 while BILLING_PROVIDER_WEBHOOK_SECRET is unset',
    auth: 'anonymous',
    response: z.object({ received: z.literal(true), duplicate: z.boolean().meta({ description: 'true: this event was processed before; nothing changed.' }) }),
    errors: [400, 404, 413],
  }),
};
