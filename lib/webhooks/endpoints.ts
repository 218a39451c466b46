// A workspace's webhook endpoints and their delivery log, for its owners and
// admins. Someone who is not an admin of the endpoint's workspace learns
// nothing about it: not a member, 404; a member without admin, 403.
import type { SignedInCaller } from '../core/caller.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import { recordAudit } from '../audit/log.ts';
import { db } from '../db/client.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import type { WebhookEventName } from '../schemas/webhooks.ts';
import { eventPayload } from '../audit/webhook-events.ts';
import { encryptSecret, newSigningSecret } from './secret.ts';
import { resolveTarget } from './target.ts';

/** Endpoints one workspace may register. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;

function webhookOut(row: WebhookEndpoint) {
  return { id: row.id, url: row.url, description: row.description, events: row.events as WebhookEventName[], active: row.active, createdAt: row.createdAt.getTime() };
}

export function deliveryOut(row: WebhookDelivery) {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event,
    status: row.status as 'pending' | 'delivered' | 'failed',
    attempts: row.attempts,
    createdAt: row.createdAt.getTime(),
    lastAttemptAt: row.lastAttemptAt?.getTime() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.getTime() : null,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    responseBody: row.responseBody,
    error: row.error,
    payload: row.payload as Record<string, unknown>,
  };
}

async function adminEndpoint({ actor }: SignedInCaller, id: string) {
  const row = await db.webhookEndpoint.findUnique({ where: { id }, include: { workspace: { select: { slug: true } } } });
  const notFound = new ApiError('not_found', `No webhook ${id} (or you cannot see it).`);
  if (!row) throw notFound;
  try {
    await workspaceAccess(actor.user.id, row.workspace.slug, 'admin');
  } catch (error) {
    // The workspace's name is not the outsider's to learn either.
    if (error instanceof ApiError && error.code === 'not_found') throw notFound;
    throw error;
  }
  return row;
}

const auditTarget = (row: WebhookEndpoint) => ({ type: 'webhook', id: row.id, label: row.url });

export async function listWebhooks({ actor }: SignedInCaller, slug: string) {
  const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin');
  const rows = await db.webhookEndpoint.findMany({ where: { workspaceId: workspace.id }, orderBy: { createdAt: 'asc' } });
  return { webhooks: rows.map(webhookOut) };
}

export async function createWebhook({ actor }: SignedInCaller, slug: string, input: { url: string; events: WebhookEventName[]; description?: string }) {
  const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin');
  await resolveTarget(input.url, 'body.url');
  const secret = newSigningSecret();
  const secretEncrypted = await encryptSecret(secret);
  const row = await db.$transaction(async (tx) => {
    // Counted under the workspace's lock, so parallel creations cannot pass the limit.
    await tx.$queryRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspace.id} FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { workspaceId: workspace.id } })) >= MAX_WEBHOOKS_PER_WORKSPACE) {
      throw new ApiError('bad_request', `"${slug}" already has ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks, the most a workspace may have; delete one first.`);
    }
    const created = await tx.webhookEndpoint.create({
      data: { id: newId('webhook'), workspaceId: workspace.id, url: input.url, description: input.description ?? '', events: [...new Set(input.events)], secretEncrypted, createdById: actor.user.id },
    });
    await recordAudit(tx, { workspaceId: workspace.id, actor: actor.user, action: 'webhook.created', target: auditTarget(created), details: { events: created.events } });
    return created;
  });
  return { webhook: webhookOut(row), secret };
}

export async function getWebhook(caller: SignedInCaller, id: string) {
  return webhookOut(await adminEndpoint(caller, id));
}

export async function updateWebhook(caller: SignedInCaller, id: string, input: { url?: string; events?: WebhookEventName[]; description?: string; active?: boolean }) {
  const row = await adminEndpoint(caller, id);
  if (input.url !== undefined) await resolveTarget(input.url, 'body.url');
  const updated = await db.$transaction(async (tx) => {
    const next = await tx.webhookEndpoint.update({
      where: { id: row.id },
      data: { url: input.url, description: input.description, active: input.active, events: input.events ? [...new Set(input.events)] : undefined },
    });
    await recordAudit(tx, { workspaceId: row.workspaceId, actor: caller.actor.user, action: 'webhook.updated', target: auditTarget(next), details: { changed: Object.keys(input) } });
    return next;
  });
  return webhookOut(updated);
}

export async function deleteWebhook(caller: SignedInCaller, id: string): Promise<void> {
  const row = await adminEndpoint(caller, id);
  await db.$transaction(async (tx) => {
    await tx.webhookEndpoint.deleteMany({ where: { id: row.id } });
    await recordAudit(tx, { workspaceId: row.workspaceId, actor: caller.actor.user, action: 'webhook.deleted', target: auditTarget(row) });
  });
}

export async function pingWebhook(caller: SignedInCaller, id: string) {
  const row = await adminEndpoint(caller, id);
  const eventId = newId('webhookEvent');
  const delivery = await db.webhookDelivery.create({
    data: { id: newId('webhookDelivery'), endpointId: row.id, eventId, event: 'ping', payload: JSON.parse(eventPayload(eventId, 'ping', row.workspaceId, { webhook: { id: row.id } })) },
  });
  return deliveryOut(delivery);
}

export async function listDeliveries(caller: SignedInCaller, id: string, limit: number) {
  const row = await adminEndpoint(caller, id);
  const rows = await db.webhookDelivery.findMany({ where: { endpointId: row.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  return { deliveries: rows.map(deliveryOut) };
}

/** A new delivery of the same event (same event id and body), due now. */
export async function redeliver(caller: SignedInCaller, id: string, deliveryId: string) {
  const row = await adminEndpoint(caller, id);
  const original = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: row.id } });
  if (!original) throw new ApiError('not_found', `No delivery ${deliveryId} of webhook ${id}.`);
  const copy = await db.webhookDelivery.create({
    data: { id: newId('webhookDelivery'), endpointId: row.id, eventId: original.eventId, event: original.event, payload: original.payload ?? {} },
  });
  return deliveryOut(copy);
}
