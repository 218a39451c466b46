// The plans and their limits, decided once here: seats are enforced when
// someone joins a workspace, rooms, live spaces and live apps when they are
// created or go live, storage when files are stored. Billing (checkout, usage
// and limits in the billing state) reads the same table. `null` is unlimited.
import type { Plan } from '../db/generated/client.ts';

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

const GB = 1024 ** 3;

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { seats: 3, rooms: 3, liveSpaces: 3, liveApps: 1, storageBytes: 1 * GB, databaseBytes: 0.5 * GB },
  pro: { seats: 10, rooms: 50, liveSpaces: 50, liveApps: 10, storageBytes: 50 * GB, databaseBytes: 2 * GB },
  team: { seats: 50, rooms: 500, liveSpaces: 500, liveApps: 100, storageBytes: 500 * GB, databaseBytes: 10 * GB },
  enterprise: { seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null, databaseBytes: null },
};

const PLAN_ORDER: Plan[] = ['free', 'pro', 'team', 'enterprise'];
const PLAN_NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };

export const planName = (plan: Plan) => PLAN_NAMES[plan];

/**
 * The limits that apply to a workspace. Every check reads them here, so that
 * where they come from (the plan table today; operator settings or billing
 * provider later) is decided in this one place.
 */
export function limitsOf(workspace: { plan: Plan }): PlanLimits {
  return PLAN_LIMITS[workspace.plan];
}

/** The first plan above `plan` whose limit `key` is higher (null when none is). */
export function planLifting(plan: Plan, key: keyof PlanLimits): Plan | null {
  const current = PLAN_LIMITS[plan][key];
  if (current === null) return null;
  return PLAN_ORDER.slice(PLAN_ORDER.indexOf(plan) + 1).find((p) => PLAN_LIMITS[p][key] === null || PLAN_LIMITS[p][key] > current) ?? null;
}
