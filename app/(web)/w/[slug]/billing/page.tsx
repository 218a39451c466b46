import type { Metadata } from 'next';
import { BillingView } from '@/components/billing/billing-view.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { billingState } from '@/lib/billing/billing.ts';
import { PLAN_ORDER, planLimits } from '@/lib/billing/plans.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';

export const metadata: Metadata = { title: 'Billing' };
export const dynamic = 'force-dynamic';

export default async function BillingPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/billing`);
  const [workspace, workspaces, state] = await Promise.all([orNotFound(getWorkspace(caller, slug)), listWorkspaces(caller), orNotFound(billingState(caller, slug))]);
  const plans = Object.fromEntries(PLAN_ORDER.map((plan) => [plan, planLimits(plan)])) as Parameters<typeof BillingView>[0]['plans'];
  return (
    <WorkspaceFrame actor={caller.actor} workspace={workspace} workspaces={workspaces} tab="billing">
      <BillingView slug={workspace.slug} state={state} plans={plans} />
    </WorkspaceFrame>
  );
}
