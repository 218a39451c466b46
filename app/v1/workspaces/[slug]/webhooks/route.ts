import { route } from '@/server/http/route.ts';
import { webhooksApi } from '@/lib/schemas/webhooks.ts';
import { createWebhook, listWebhooks } from '@/lib/webhooks/endpoints.ts';

export const GET = route(webhooksApi.list, async ({ caller, params }) => listWebhooks(caller, params.slug));
export const POST = route(webhooksApi.create, async ({ caller, params, body }) => createWebhook(caller, params.slug, body));
