import { route } from '@/server/http/route.ts';
import { webhooksApi } from '@/lib/schemas/webhooks.ts';
import { listDeliveries } from '@/lib/webhooks/endpoints.ts';

export const GET = route(webhooksApi.deliveries, async ({ caller, params, query }) => listDeliveries(caller, params.id, query.limit));
