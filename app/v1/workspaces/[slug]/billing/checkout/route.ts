import { checkout } from '@/lib/billing/billing.ts';
import { route } from '@/server/http/route.ts';
import { billingApi } from '@/lib/schemas/billing.ts';

export const POST = route(billingApi.checkout, async ({ caller, params, body }) => checkout(caller, params.slug, body.plan));
