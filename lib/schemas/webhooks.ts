import { z } from 'zod';
import { slug, text, timestamp, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';

/** What a workspace's webhooks can be told about (docs/webhooks.md describes each payload). */
export const WEBHOOK_EVENTS = [
  'version.committed',
  'alias.moved',
  'comment.created',
  'comment.resolved',
  'app.went_live',
  'app.promoted',
  'app.rolled_back',
  'member.joined',
  'member.left',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
/** Each event as the web app names it to a person. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventName | 'ping', string> = {
  'version.committed': 'A version is published',
  'alias.moved': 'An alias is set or moved',
  'comment.created': 'A comment is posted',
  'comment.resolved': 'A thread is resolved',
  'app.went_live': 'An app goes live',
  'app.promoted': "An app's preview is promoted",
  'app.rolled_back': 'A live app is rolled back',
  'member.joined': 'Someone joins the workspace',
  'member.left': 'Someone leaves the workspace',
  ping: 'Test',
};
/** What a delivery may carry: a subscribable event, or the test event an admin sends. */
export type WebhookEventType = WebhookEventName | 'ping';

export const webhookEvent = z.enum(WEBHOOK_EVENTS);

const webhookUrl = text()
  .max(2000)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL')
  .meta({ description: 'Where deliveries are POSTed: HTTPS, on a public address (see docs/webhooks.md).' });

export const webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(webhookEvent),
    active: z.boolean().meta({ description: 'A paused endpoint gets no new deliveries.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Webhook' });

export const webhookDelivery = z
  .object({
    id: z.string(),
    eventId: z.string().meta({ description: 'The same for every delivery of one event (Atrium-Event-Id): receivers deduplicate on it.' }),
    event: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']).meta({ description: 'pending: waiting for its first or next attempt; failed: retries exhausted.' }),
    attempts: z.number().int().min(0),
    createdAt: timestamp,
    lastAttemptAt: timestamp.nullable(),
    nextAttemptAt: timestamp.nullable().meta({ description: 'When the next attempt is due; null once delivered or failed.' }),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    responseBody: z.string().nullable().meta({ description: "The first 1,024 characters of the last answer's body." }),
    error: z.string().nullable().meta({ description: 'Why the last attempt failed without an answer (refused address, timeout, connection error).' }),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The JSON body this delivery sends (id, type, createdAt, workspaceId, data).' }),
  })
  .meta({ id: 'WebhookDelivery' });

const idParams = z.object({ id: text().min(1).max(100) });
const slugParams = z.object({ slug });

export const webhooksApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/workspaces/{slug}/webhooks',
    tag: 'Webhooks',
    summary: "The workspace's webhook endpoints (owner or admin)",
    auth: 'user',
    params: slugParams,
    response: z.object({ webhooks: z.array(webhook) }),
    errors: [401, 403, 404],
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/webhooks',
    tag: 'Webhooks',
    summary: 'Register an endpoint for some events (owner or admin); the answer carries its signing secret, shown once',
    auth: 'user',
    params: slugParams,
    body: z.object({
      url: webhookUrl,
      events: z.array(webhookEvent).min(1).max(WEBHOOK_EVENTS.length),
      description: text().trim().max(200).optional(),
    }),
    response: z.object({ webhook, secret: z.string().meta({ description: 'The signing secret (whsec_…, the Standard Webhooks form); keep it: it is not shown again.' }) }),
    errors: [400, 401, 403, 404],
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'A webhook endpoint (owner or admin of its workspace)',
    auth: 'user',
    params: idParams,
    response: webhook,
    errors: [401, 403, 404],
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Change where an endpoint is, what it hears, or pause it (owner or admin)',
    auth: 'user',
    params: idParams,
    body: z.object({
      url: webhookUrl.optional(),
      events: z.array(webhookEvent).min(1).max(WEBHOOK_EVENTS.length).optional(),
      description: text().trim().max(200).optional(),
      active: z.boolean().optional(),
    }),
    response: webhook,
    errors: [400, 401, 403, 404],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Delete an endpoint and its delivery log (owner or admin)',
    auth: 'user',
    params: idParams,
    response: null,
    errors: [401, 403, 404],
  }),
  ping: endpoint({
    method: 'POST',
    path: '/v1/webhooks/{id}/ping',
    tag: 'Webhooks',
    summary: 'Queue a `ping` event to the endpoint, to check it receives and verifies deliveries (owner or admin)',
    auth: 'user',
    params: idParams,
    response: webhookDelivery,
    errors: [401, 403, 404],
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    tag: 'Webhooks',
    summary: "The endpoint's deliveries, newest first (owner or admin)",
    auth: 'user',
    params: idParams,
    query: z.object({ limit: wholeNumber(1, 200).default(50).meta({ description: 'From 1 to 200; 50 when absent.' }) }),
    response: z.object({ deliveries: z.array(webhookDelivery) }),
    errors: [400, 401, 403, 404],
  }),
  redeliver: endpoint({
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    tag: 'Webhooks',
    summary: 'Send a delivery again, as a new delivery of the same event (owner or admin)',
    auth: 'user',
    params: idParams.extend({ deliveryId: text().min(1).max(100) }),
    response: webhookDelivery,
    errors: [401, 403, 404],
  }),
};
