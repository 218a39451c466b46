// The plans and their limits, decided once here: seats are enforced when
// someone joins a workspace, rooms, live spaces and live apps when they are
// created or go live, storage when files are stored. Billing (checkout, usage
// and limits in the billing state) reads the same table. `null` is unlimited.
//
// Which table applies (docs/decisions.md, "Billing"):
// - the operator's (BILLING_PLANS) when set, over the built-in one;
// - else the built-in one when a billing provider is configured;
// - else none: a self-hosted install is not capped by plans nobody can buy.
import { config } from '../config.ts';
import type { Plan } from '../db/generated/client.ts';
import { formatBytes } from '../format.ts';
import { ApiError } from '../core/errors.ts';

export type PlanLimits = {
  /** Accepted members, whatever their role; pending invitations take no seat. */
  seats: number | null;
  rooms: number | null;
  liveSpaces: number | null;
  liveApps: number | null;
  /** Bytes of published files, uploads, sources and images together. */
  storageBytes: number | null;
  /** Size of each space's SQL database. */
  databaseBytes: number | null;
};

export type LimitKey = keyof PlanLimits;

const GB = 1024 ** 3;

/** The plans sold with a billing provider. */
export const PLAN_LIMITS: Readonly<Record<Plan, Readonly<PlanLimits>>> = {
  free: { seats: 3, rooms: 3, liveSpaces: 3, liveApps: 1, storageBytes: 1 * GB, databaseBytes: 0.5 * GB },
  pro: { seats: 10, rooms: 50, liveSpaces: 50, liveApps: 10, storageBytes: 50 * GB, databaseBytes: 2 * GB },
  team: { seats: 50, rooms: 500, liveSpaces: 500, liveApps: 100, storageBytes: 500 * GB, databaseBytes: 10 * GB },
  enterprise: { seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null, databaseBytes: null },
};

const UNLIMITED: PlanLimits = { seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null, databaseBytes: null };

export const PLAN_ORDER: Plan[] = ['free', 'pro', 'team', 'enterprise'];
const PLAN_NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };

export const planName = (plan: Plan) => PLAN_NAMES[plan];
export const planRank = (plan: Plan) => PLAN_ORDER.indexOf(plan);

/** Whether plan limits apply at all on this server. */
export function limitsEnforced(): boolean {
  return config.planTable !== null || config.billing.secretKey !== null;
}

/** The limits of a plan on this server (all null when limits are off). */
export function planLimits(plan: Plan): PlanLimits {
  if (!limitsEnforced()) return { ...UNLIMITED };
  return { ...PLAN_LIMITS[plan], ...config.planTable?.[plan] };
}

/**
 * The limits that apply to a workspace. Every check reads them here, so that
 * where they come from is decided in this one place.
 */
export function limitsOf(workspace: { plan: Plan }): PlanLimits {
  return planLimits(workspace.plan);
}

/** The first plan above `plan` whose limit `key` is higher (null when none is). */
export function planLifting(plan: Plan, key: LimitKey): Plan | null {
  const current = planLimits(plan)[key];
  if (current === null) return null;
  return (
    PLAN_ORDER.slice(planRank(plan) + 1).find((p) => {
      const limit = planLimits(p)[key];
      return limit === null || limit > current;
    }) ?? null
  );
}

const NOUNS: Record<LimitKey, [one: string, many: string]> = {
  seats: ['seat', 'seats'],
  rooms: ['room', 'rooms'],
  liveSpaces: ['live space', 'live spaces'],
  liveApps: ['live app', 'live apps'],
  storageBytes: ['byte of storage', 'bytes of storage'],
  databaseBytes: ['byte per space database', 'bytes per space database'],
};

const BYTES: Partial<Record<LimitKey, string>> = { storageBytes: 'of storage', databaseBytes: 'per space database' };

/** "3 rooms", "1 live app", "1 GiB of storage", "unlimited rooms". */
export function describeLimit(key: LimitKey, limit: number | null): string {
  if (limit === null) return key === 'storageBytes' ? 'unlimited storage' : `unlimited ${NOUNS[key][1]}`;
  if (BYTES[key]) return `${formatBytes(limit)} ${BYTES[key]}`;
  return `${limit} ${NOUNS[key][limit === 1 ? 0 : 1]}`;
}

/** " Upgrade to Pro for 50 rooms." or "" when no plan lifts the limit. */
/** The web page where a workspace's plan, usage and limits are shown and changed. */
export const billingPageUrl = (slug: string) => `${config.publicUrl}/w/${encodeURIComponent(slug)}/billing`;

/** " Upgrade to Pro for 50 rooms: <billing page>." when a higher plan lifts the limit. */
export function upgradeHint(workspace: { slug: string; plan: Plan }, key: LimitKey): string {
  const lift = planLifting(workspace.plan, key);
  return lift ? ` Upgrade to ${planName(lift)} for ${describeLimit(key, planLimits(lift)[key])}: ${billingPageUrl(workspace.slug)}` : '';
}

/** The 403 of a count limit reached: names the limit, the current plan and the plan that lifts it. */
export function limitReached(workspace: { slug: string; plan: Plan }, key: Exclude<LimitKey, 'storageBytes'>, limit: number): ApiError {
  return new ApiError(
    'forbidden',
    `"${workspace.slug}" has ${key === 'seats' ? 'no free seat: it has ' : ''}reached the ${planName(workspace.plan)} plan's limit of ${describeLimit(key, limit)}.${upgradeHint(workspace, key)}`,
  );
}

/**
 * Refuses (403) creating one more of `key` when the workspace already has
 * `currentCount` (rooms, live spaces, live apps, seats). Call it where the
 * thing is created, inside the transaction that counts, so two creations
 * cannot pass the limit together. Usage above the limit (after a downgrade)
 * deletes nothing; it only blocks new creation.
 */
export function requireUnderLimit(workspace: { slug: string; plan: Plan }, key: Exclude<LimitKey, 'storageBytes'>, currentCount: number): void {
  const limit = limitsOf(workspace)[key];
  if (limit !== null && currentCount >= limit) throw limitReached(workspace, key, limit);
}
