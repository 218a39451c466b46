import { route } from '@/server/http/route.ts';
import { webhooksApi } from '@/lib/schemas/webhooks.ts';
import { redeliver } from '@/lib/webhooks/endpoints.ts';

export const POST = route(webhooksApi.redeliver, async ({ caller, params }) => redeliver(caller, params.id, params.deliveryId));
