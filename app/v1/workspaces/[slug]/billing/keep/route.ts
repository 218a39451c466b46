import { keepPlan } from '@/lib/billing/billing.ts';
import { route } from '@/server/http/route.ts';
import { billingApi } from '@/lib/schemas/billing.ts';

export const POST = route(billingApi.keep, async ({ caller, params }) => keepPlan(caller, params.slug));
