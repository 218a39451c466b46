// Webhook events are queued as deliveries in the transaction of the change
// they report (an outbox): no event for a change that rolled back, no change
// without its event. One delivery row per active endpoint of the workspace
// that listens to the event; lib/webhooks/dispatch.ts sends them.
import type { Prisma, PrismaClient } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { WebhookEventType } from '../schemas/webhooks.ts';

type RawClient = Pick<PrismaClient, '$executeRaw'> | Pick<Prisma.TransactionClient, '$executeRaw'>;

/** The JSON body every delivery of an event carries. */
export function eventPayload(eventId: string, type: WebhookEventType, workspaceId: string, data: object): string {
  return JSON.stringify({ id: eventId, type, createdAt: new Date().toISOString(), workspaceId, data });
}

/**
 * Queues `type` for the workspace's endpoints that listen to it: one
 * statement, to run in the change's own transaction (interactive or batch).
 */
export function queueWebhookEvent(client: RawClient, workspaceId: string, type: WebhookEventType, data: object) {
  const eventId = newId('webhookEvent');
  const payload = eventPayload(eventId, type, workspaceId, data);
  // A delivery's id is derived from its event and endpoint: one row per pair.
  return client.$executeRaw`
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "eventId", "event", "payload")
    SELECT 'whd_' || substr(md5(${eventId} || e."id"), 1, 21), e."id", ${eventId}, ${type}, ${payload}::jsonb
    FROM "WebhookEndpoint" e
    WHERE e."workspaceId" = ${workspaceId} AND e."active" AND ${type} = ANY(e."events")`;
}
