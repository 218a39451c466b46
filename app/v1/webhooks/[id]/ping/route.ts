import { route } from '@/server/http/route.ts';
import { webhooksApi } from '@/lib/schemas/webhooks.ts';
import { pingWebhook } from '@/lib/webhooks/endpoints.ts';

export const POST = route(webhooksApi.ping, async ({ caller, params }) => pingWebhook(caller, params.id));
