import { route } from '@/server/http/route.ts';
import { webhooksApi } from '@/lib/schemas/webhooks.ts';
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/endpoints.ts';

export const GET = route(webhooksApi.get, async ({ caller, params }) => getWebhook(caller, params.id));
export const PATCH = route(webhooksApi.update, async ({ caller, params, body }) => updateWebhook(caller, params.id, body));
export const DELETE = route(webhooksApi.remove, async ({ caller, params }) => deleteWebhook(caller, params.id));
