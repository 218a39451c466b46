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
};

const GB = 1024 ** 3;

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { seats: 3, rooms: 3, liveSpaces: 3, liveApps: 1, storageBytes: 1 * GB },
  pro: { seats: 10, rooms: 50, liveSpaces: 50, liveApps: 10, storageBytes: 50 * GB },
  team: { seats: 50, rooms: 500, liveSpaces: 500, liveApps: 100, storageBytes: 500 * GB },
  enterprise: { seats: null, rooms: null, liveSpaces: null, liveApps: null, storageBytes: null },
};
