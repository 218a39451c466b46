import { billingState } from '@/lib/billing/billing.ts';
import { route } from '@/server/http/route.ts';
import { billingApi } from '@/lib/schemas/billing.ts';

export const GET = route(billingApi.state, async ({ caller, params }) => billingState(caller, params.slug));
