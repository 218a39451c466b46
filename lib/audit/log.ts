// The workspace audit log: who did what to which target, with details, and
// when. Events are only ever appended (the database refuses updates), and each
// is written with the transaction client of the change it records, so a change
// and its record are committed together or not at all.
import type { SignedInCaller } from '../core/caller.ts';
import { db, type Prisma } from '../db/client.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import { newId } from '../ids.ts';
import type { WebhookEventType } from '../schemas/webhooks.ts';
import { queueWebhookEvent } from './webhook-events.ts';
import type { AuditPage } from '../schemas/workspaces.ts';

/** Event names; later features add theirs (billing, sharing, going live) here. */
export type AuditAction =
  | 'workspace.created'
  | 'workspace.updated'
  | 'member.invited'
  | 'member.invitation_cancelled'
  | 'member.joined'
  | 'member.declined'
  | 'member.role_changed'
  | 'member.removed'
  | 'member.left'
  | 'invite_link.created'
  | 'invite_link.revoked'
  | 'billing.checkout_started'
  | 'billing.checkout_completed'
  | 'billing.plan_changed'
  | 'billing.status_changed'
  | 'billing.change_scheduled'
  | 'billing.change_cancelled'
  | 'billing.payment_failed'
  | 'billing.plan_set'
  | 'space.deleted'
  | 'app.went_live'
  | 'app.promoted'
  | 'app.rolled_back'
  | 'app.access_changed'
  | 'app.paused'
  | 'app.resumed'
  | 'app.deleted'
  | 'app.table_full'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted';

export type AuditEntry = {
  workspaceId: string;
  /** The person who acted; null for the system. */
  actor: { id: string; handle: string } | null;
  action: AuditAction;
  target?: { type: string; id: string; label?: string | null };
  details?: Record<string, Prisma.InputJsonValue | null>;
};

/** Audited actions that workspaces' webhooks hear about, as which event. */
const WEBHOOK_EVENT_OF: Partial<Record<AuditAction, WebhookEventType>> = {
  'member.joined': 'member.joined',
  'member.left': 'member.left',
  'member.removed': 'member.left',
  'app.went_live': 'app.went_live',
  'app.promoted': 'app.promoted',
  'app.rolled_back': 'app.rolled_back',
};

export async function recordAudit(tx: Prisma.TransactionClient, entry: AuditEntry): Promise<void> {
  const event = WEBHOOK_EVENT_OF[entry.action];
  if (event) {
    const details = { ...entry.details, ...(entry.action === 'member.removed' ? { removed: true } : {}) };
    await queueWebhookEvent(tx, entry.workspaceId, event, { actor: entry.actor, target: entry.target ?? null, details });
  }
  await tx.auditEvent.create({
    data: {
      id: newId('auditEvent'),
      workspaceId: entry.workspaceId,
      actorId: entry.actor?.id ?? null,
      actorHandle: entry.actor?.handle ?? null,
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      targetLabel: entry.target?.label ?? null,
      details: entry.details ?? {},
    },
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** Newest first; `next` is passed back as `before` for the page after. */
export async function auditLog({ actor }: SignedInCaller, slug: string, page: { before?: number; limit?: number }): Promise<AuditPage> {
  const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin');
  const limit = page.limit ?? AUDIT_PAGE_SIZE;
  const rows = await db.auditEvent.findMany({
    where: { workspaceId: workspace.id, ...(page.before !== undefined && { seq: { lt: BigInt(page.before) } }) },
    orderBy: { seq: 'desc' },
    take: limit + 1,
  });
  const events = rows.slice(0, limit).map((row) => ({
    id: row.id,
    action: row.action,
    actor: row.actorId && row.actorHandle ? { id: row.actorId, handle: row.actorHandle } : null,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    details: row.details as Record<string, unknown>,
    createdAt: row.createdAt.getTime(),
  }));
  return { events, next: rows.length > limit ? Number(rows[limit - 1].seq) : null };
}
