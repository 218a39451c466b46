// The operator's way to set a workspace's plan, e.g. Enterprise, or any plan on
// a server without a billing provider (scripts/billing-plan.ts). A plan that a
// Stripe subscription pays for is Stripe's: the next webhook event re-reads
// the subscription and sets the plan it pays for.
import { recordAudit } from '../audit/log.ts';
import { db } from '../db/client.ts';
import type { Plan } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { PLAN_ORDER } from './plans.ts';

export async function setPlanByOperator(slug: string, plan: string): Promise<{ from: Plan; to: Plan }> {
  if (!PLAN_ORDER.includes(plan as Plan)) throw new ApiError('bad_request', `No plan "${plan}": use one of ${PLAN_ORDER.join(', ')}.`);
  return db.$transaction(async (tx) => {
    const workspace = await tx.workspace.findUnique({ where: { slug }, select: { id: true, plan: true } });
    if (!workspace) throw new ApiError('not_found', `No workspace "${slug}".`);
    await tx.workspace.update({ where: { id: workspace.id }, data: { plan: plan as Plan } });
    await recordAudit(tx, { workspaceId: workspace.id, actor: null, action: 'billing.plan_set', target: { type: 'workspace', id: workspace.id, label: slug }, details: { from: workspace.plan, to: plan, by: 'operator' } });
    return { from: workspace.plan, to: plan as Plan };
  });
}
