'use client';
// The buttons of the billing page: change plan, keep the plan, open the
// portal. Each calls the API; Stripe's pages are opened by following the URL
// the API returns.
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { billingApi } from '@/lib/schemas/billing.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

const follow = ({ url }: { url: string }) => {
  window.location.assign(url);
};

export function ChoosePlanButton({ slug, plan, label, variant }: { slug: string; plan: 'free' | 'pro' | 'team'; label: string; variant: 'primary' | 'secondary' }) {
  const { busy, error, run } = useAction();
  return (
    <div>
      <Button variant={variant} disabled={busy} onClick={() => run(() => web.call(billingApi.checkout, { params: { slug }, body: { plan } }), follow)}>
        {busy ? 'Working…' : label}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}

export function KeepPlanButton({ slug }: { slug: string }) {
  const { busy, error, run } = useAction();
  return (
    <div>
      <Button variant="secondary" disabled={busy} onClick={() => run(() => web.call(billingApi.keep, { params: { slug } }))}>
        Keep my plan
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}

export function PortalButton({ slug }: { slug: string }) {
  const { busy, error, run } = useAction();
  return (
    <div>
      <Button variant="secondary" disabled={busy} onClick={() => run(() => web.call(billingApi.portal, { params: { slug } }), follow)}>
        Invoices and payment method
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
