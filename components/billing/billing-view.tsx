// The billing page's content: plan cards, usage against limits, the waiting
// change. Members who cannot manage see the same, without buttons.
import { Card } from '@/components/ui/card.tsx';
import type { PlanLimits } from '@/lib/billing/plans.ts';
import { formatBytes } from '@/lib/format.ts';
import type { BillingState } from '@/lib/schemas/billing.ts';
import { formatDate } from '@/lib/web/format.ts';
import { ChoosePlanButton, KeepPlanButton, PortalButton } from './billing-actions.tsx';

type Plan = BillingState['plan'];
const NAMES: Record<Plan, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };
const ORDER: Plan[] = ['free', 'pro', 'team', 'enterprise'];
const USAGE: [Exclude<keyof PlanLimits, 'databaseBytes'>, string][] = [
  ['seats', 'Seats'],
  ['rooms', 'Rooms'],
  ['liveSpaces', 'Live spaces'],
  ['liveApps', 'Live apps'],
  ['storageBytes', 'Storage'],
];

const show = (key: keyof PlanLimits, value: number | null) => (value === null ? 'unlimited' : key === 'storageBytes' ? formatBytes(value) : String(value));

function UsageBar({ label, used, limit, storage }: { label: string; used: number; limit: number | null; storage: boolean }) {
  const share = limit === null ? 0 : limit === 0 ? 1 : Math.min(1, used / limit);
  const over = limit !== null && used >= limit;
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span>{label}</span>
        <span className={over ? 'font-medium text-danger' : 'text-muted'}>
          {storage ? formatBytes(used) : used} of {limit === null ? 'unlimited' : storage ? formatBytes(limit) : limit}
        </span>
      </div>
      <div className="mt-1 h-2 rounded bg-slate-100 dark:bg-slate-700" role="meter" aria-label={label} aria-valuenow={used} aria-valuemin={0} aria-valuemax={limit ?? undefined}>
        <div className={`h-2 rounded ${over ? 'bg-red-600' : 'bg-brand'}`} style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}

export function BillingView({ slug, state, plans }: { slug: string; state: BillingState; plans: Record<Plan, PlanLimits> }) {
  const current = ORDER.indexOf(state.plan);
  // Whether this person may manage billing, and whether there is a provider to manage it with.
  const canChange = state.canManage && state.billingConfigured;
  return (
    <>
      <Card title={`${NAMES[state.plan]} plan`} actions={canChange ? <PortalButton slug={slug} /> : null}>
        <p className="text-sm text-muted">
          {state.billingConfigured
            ? `Status: ${state.status.replace('_', ' ')}${state.renewsAt ? ` · renews ${formatDate(state.renewsAt)}` : ''}`
            : `Billing is not set up on this server: plans are set by its operator.${state.canManage ? ' Ask them to change this workspace’s plan.' : ''}`}
          {state.billingConfigured && !state.canManage ? ' · Only owners and admins can change the plan.' : ''}
        </p>
        {state.status === 'past_due' || state.status === 'unpaid' ? (
          <p className="mt-2 text-sm font-medium text-danger">The last payment failed. Update the payment method to keep this plan.</p>
        ) : null}
        {state.scheduled ? (
          <div className="mt-4 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
            <span>
              {state.scheduled.plan === 'free' ? 'The subscription ends' : `Changes to ${NAMES[state.scheduled.plan]}`} on {formatDate(state.scheduled.at)}.
            </span>
            {canChange ? <KeepPlanButton slug={slug} /> : null}
          </div>
        ) : null}
        <div className="mt-4 space-y-3">
          {USAGE.map(([key, label]) => (
            <UsageBar key={key} label={label} used={state.usage[key]} limit={state.limits[key]} storage={key === 'storageBytes'} />
          ))}
        </div>
      </Card>
      {state.billingConfigured ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {ORDER.map((plan, rank) => (
            <Card key={plan} title={NAMES[plan]} label={`${NAMES[plan]} plan`}>
              <ul className="space-y-1 text-sm text-muted">
                {USAGE.map(([key, label]) => (
                  <li key={key}>
                    {label}: {show(key, plans[plan][key])}
                  </li>
                ))}
              </ul>
              <div className="mt-4">
                {plan === state.plan ? (
                  <span className="text-sm font-medium">Your plan</span>
                ) : plan === 'enterprise' ? (
                  <span className="text-sm text-muted">Contact the operator</span>
                ) : canChange && state.plan !== 'enterprise' ? (
                  <ChoosePlanButton slug={slug} plan={plan} label={rank > current ? `Upgrade to ${NAMES[plan]}` : `Downgrade to ${NAMES[plan]}`} variant={rank > current ? 'primary' : 'secondary'} />
                ) : null}
              </div>
            </Card>
          ))}
        </div>
      ) : null}
    </>
  );
}
