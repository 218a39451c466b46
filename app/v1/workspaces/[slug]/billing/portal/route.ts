import { portal } from '@/lib/billing/billing.ts';
import { route } from '@/server/http/route.ts';
import { billingApi } from '@/lib/schemas/billing.ts';

export const POST = route(billingApi.portal, async ({ caller, params }) => portal(caller, params.slug));
