// The Stripe client, made from the configuration when first needed (and again
// when the configuration changes, as tests change it). The API version is
// pinned, so a Stripe account upgraded later does not change the shapes read here.
import Stripe from 'stripe';
import { config } from '../config.ts';
import type { Plan } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';

export const STRIPE_API_VERSION = '2026-10-28.endive';

let cached: { key: string; apiUrl: string | null; client: Stripe } | null = null;

/** Whether a billing provider is configured (BILLING_PROVIDER_SECRET_KEY). */
export const billingConfigured = () => config.billing.secretKey !== null;

/** The client; 400 naming the variable when no secret key is set. */
export function stripe(): Stripe {
  const { secretKey: key, apiUrl } = config.billing;
  if (!key) throw new ApiError('bad_request', 'Billing is not set up on this server (BILLING_PROVIDER_SECRET_KEY is unset); plans are changed by its operator.');
  if (cached?.key === key && cached.apiUrl === apiUrl) return cached.client;
  const at = apiUrl ? new URL(apiUrl) : null;
  const client = new Stripe(key, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Atrium' },
    ...(at && { host: at.hostname, port: Number(at.port || (at.protocol === 'https:' ? 443 : 80)), protocol: at.protocol === 'https:' ? 'https' : 'http' }),
  });
  cached = { key, apiUrl, client };
  return client;
}

/**
 * Whether Stripe answered that it does not hold the object asked for: any 404,
 * whether or not it carries the `resource_missing` code.
 */
export const isGone = (error: unknown): boolean => (error as { statusCode?: number } | null)?.statusCode === 404;

/** Webhook signatures are checked without a secret key (only the signing secret is needed). */
export const webhooks = () => Stripe.webhooks;

/** The Stripe price of a plan sold; null for free and for plans without a price. */
export function priceOf(plan: Plan): string | null {
  return plan === 'free' ? null : config.billing.prices[plan];
}

/**
 * The plan a Stripe price stands for: one of the configured prices, or a
 * price whose metadata says `atrium_plan` (how an enterprise price made for
 * one customer is recognised); null for a price Atrium does not know.
 */
export function planOfPrice(price: Stripe.Price | string | null | undefined): Plan | null {
  if (!price) return null;
  const id = typeof price === 'string' ? price : price.id;
  const { pro, team, enterprise } = config.billing.prices;
  if (id === pro) return 'pro';
  if (id === team) return 'team';
  if (enterprise && id === enterprise) return 'enterprise';
  const marked = typeof price === 'string' ? undefined : price.metadata?.atrium_plan;
  return marked === 'pro' || marked === 'team' || marked === 'enterprise' ? marked : null;
}
