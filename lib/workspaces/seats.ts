// Seats: every accepted member takes one; the plan (lib/billing/plans.ts)
// says how many there are. Joining past the limit is refused.
import { limitsOf, requireUnderLimit } from '../billing/plans.ts';
import type { Plan } from '../db/generated/client.ts';
import type { PrismaClient } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';

type Client = Pick<PrismaClient, 'membership'>;

export async function seatUsage(client: Client, workspace: { id: string; plan: Plan }) {
  const counts = await client.membership.groupBy({ by: ['status'], where: { workspaceId: workspace.id }, _count: true });
  const of = (status: 'accepted' | 'pending') => counts.find((c) => c.status === status)?._count ?? 0;
  return { plan: workspace.plan, used: of('accepted'), pending: of('pending'), limit: limitsOf(workspace).seats };
}

/** Call inside changeWorkspace (lib/workspaces/transaction.ts), so two joins cannot take the last seat together. */
export async function assertSeatFree(client: Client, workspace: { id: string; slug: string; plan: Plan }): Promise<void> {
  const { used } = await seatUsage(client, workspace);
  requireUnderLimit(workspace, 'seats', used);
}
