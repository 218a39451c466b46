// A person's inbox (docs/decisions.md, "Notifications"). An event's
// notifications are written by one statement in the transaction of the change
// they report, as webhook events are, and never for the person who acted;
// after the commit each recipient's inbox is trimmed and a mail is queued
// (lib/jobs) for those who asked for their kind: sent by a worker, not in the
// request, and retried while the SMTP server refuses it. What a person sees is decided when they read
// it (lib/access/notifications.ts), from current grants.
import type { SignedInCaller } from '../core/caller.ts';
import { visibleNotifications } from '../access/notifications.ts';
import { config } from '../config.ts';
import { db, type Prisma } from '../db/client.ts';
import type { WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { sendJobs, type Job, type JobKind } from '../jobs/queue.ts';
import { log } from '../log.ts';
import { sendMail } from '../mail/mailer.ts';
import { roomPath } from '../core/room-paths.ts';
import type { Notification, NotificationKind, NotificationPage, NotificationSettings } from '../schemas/notifications.ts';
import { notificationText } from './text.ts';

/** Read notifications are deleted this long after they were created. */
export const READ_KEPT_DAYS = 90;
/** Each inbox keeps its newest this many, read or not. */
export const INBOX_CAP = 500;

export type NewNotification = {
  userId: string;
  kind: NotificationKind;
  workspaceId: string;
  spaceId?: string;
  commentId?: string;
  appId?: string;
  roomId?: string;
  pageId?: string;
  role?: WorkspaceRole;
};

type Row = NewNotification & { id: string; actorId: string };

/**
 * The rows of one event: none for the actor, one per person (the first that
 * names them wins, so a mention in a reply to your thread is one mention).
 */
export function eventNotifications(actorId: string, items: NewNotification[]): Row[] {
  const seen = new Set([actorId]);
  return items.filter((n) => !seen.has(n.userId) && seen.add(n.userId)).map((n) => ({ ...n, id: newId('notification'), actorId }));
}

/** The statement that stores them, to run in the change's own transaction (interactive or batch). */
export function queueNotifications(client: Pick<Prisma.TransactionClient, 'notification'>, rows: Row[]) {
  return client.notification.createMany({ data: rows });
}

/** Joining a workspace answers its invitation: the inbox stops showing that as unread. Runs in the join's transaction. */
export function markInvitationRead(client: Pick<Prisma.TransactionClient, 'notification'>, userId: string, workspaceId: string) {
  return client.notification.updateMany({ where: { userId, workspaceId, kind: 'invited', readAt: null }, data: { readAt: new Date() } });
}

/**
 * After the commit: trims the recipients' inboxes and queues a mail for each
 * who wants this kind by mail. Best effort: a failure is logged, the event
 * stands. Answers how many mails were queued.
 */
export async function deliverNotifications(rows: Row[]): Promise<number> {
  if (!rows.length) return 0;
  try {
    await trimInboxes(rows.map((r) => r.userId));
    if (!config.smtpUrl) return 0;
    const recipients = await db.user.findMany({ where: { id: { in: rows.map((r) => r.userId) }, email: { not: null } }, select: { id: true, mailOn: true } });
    const mailed = rows.filter((r) => recipients.some((u) => u.id === r.userId && u.mailOn.includes(r.kind)));
    await sendJobs(notificationMails, mailed.map((r) => ({ data: { notification: r.id } })));
    return mailed.length;
  } catch (error) {
    log.warn('notification delivery failed', { notifications: rows.map((r) => r.id), error: String(error) });
    return 0;
  }
}

async function trimInboxes(userIds: string[]): Promise<void> {
  await db.$executeRaw`
    DELETE FROM "Notification" n USING (
      SELECT "seq", row_number() OVER (PARTITION BY "userId" ORDER BY "seq" DESC) AS rank
      FROM "Notification" WHERE "userId" = ANY(${userIds})
    ) r
    WHERE n."seq" = r."seq" AND (r.rank > ${INBOX_CAP} OR (n."readAt" IS NOT NULL AND n."createdAt" < now() - make_interval(days => ${READ_KEPT_DAYS})))`;
}

/** Mails one notification, as it reads when the job runs; nothing when its recipient can no longer see it or no longer wants it. */
async function mailNotification(job: Job<{ notification: string }>): Promise<void> {
  const row = await db.notification.findUnique({ where: { id: job.data.notification }, select: { userId: true, kind: true, user: { select: { email: true, mailOn: true } } } });
  if (!row?.user.email || !row.user.mailOn.includes(row.kind)) return;
  const [notification] = (await readNotifications(row.userId, { id: job.data.notification }, 1)).notifications;
  if (!notification) return;
  const { title, detail } = notificationText(notification);
  // Throws when the SMTP server refuses it: the job is retried.
  await sendMail({ to: row.user.email, subject: title, text: `${title}${detail ? `:\n\n${detail}` : '.'}\n\nOpen it: ${config.publicUrl}${notification.path}\n\nChoose which notifications are e-mailed to you: ${config.publicUrl}/settings/preferences\n` });
}

export const notificationMails: JobKind<{ notification: string }> = {
  name: 'notification-mail',
  // An SMTP server that refuses is tried again after about 1, 2, 4, 8 and 16 minutes.
  queue: { notify: true, expireInSeconds: 120, retryLimit: 5, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600, deleteAfterSeconds: 24 * 3600 },
  work: { localConcurrency: 2, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 30 },
  handle: mailNotification,
};

const include = {
  actor: { select: { id: true, handle: true, name: true } },
  workspace: { select: { slug: true, name: true } },
  space: { select: { id: true, name: true } },
  comment: { select: { id: true, path: true, body: true } },
  app: { select: { id: true, name: true } },
  room: { select: { id: true, kind: true, name: true } },
} satisfies Prisma.NotificationInclude;

type Stored = Prisma.NotificationGetPayload<{ include: typeof include }>;

function placeOf(n: Stored, joined: Set<string>): string {
  if (n.comment && n.space) return `/spaces/${n.space.id}/comments?path=${encodeURIComponent(n.comment.path)}#${n.comment.id}`;
  if (n.room) return `${roomPath(n.room.kind, n.room.id)}?page=${encodeURIComponent(n.pageId!)}`;
  if (n.app) return `/apps/${n.app.id}`;
  // An invitation not yet answered is answered on the dashboard.
  return joined.has(n.workspaceId) ? `/w/${n.workspace.slug}` : '/';
}

function notificationOut(n: Stored, joined: Set<string>): Notification {
  return {
    id: n.id,
    kind: n.kind,
    read: n.readAt !== null,
    createdAt: n.createdAt.getTime(),
    actor: n.actor,
    workspace: n.workspace,
    space: n.space,
    comment: n.comment && { ...n.comment, body: n.comment.body.slice(0, 200) },
    app: n.app,
    room: n.room && { ...n.room, pageId: n.pageId! },
    role: n.role,
    path: placeOf(n, joined),
  };
}

async function readNotifications(userId: string, where: Prisma.NotificationWhereInput, limit: number): Promise<Omit<NotificationPage, 'unread'>> {
  const rows = await db.notification.findMany({ where: { AND: [visibleNotifications(userId), where] }, include, orderBy: { seq: 'desc' }, take: limit + 1 });
  const page = rows.slice(0, limit);
  const joined = new Set(
    (await db.membership.findMany({ where: { userId, status: 'accepted', workspaceId: { in: page.map((n) => n.workspaceId) } }, select: { workspaceId: true } })).map((m) => m.workspaceId),
  );
  return { notifications: page.map((n) => notificationOut(n, joined)), next: rows.length > limit ? Number(page.at(-1)!.seq) : null };
}

/** Newest first; `next` is passed back as `before` for the page after. */
export async function listNotifications({ actor }: SignedInCaller, page: { before?: number; limit: number }): Promise<NotificationPage> {
  const userId = actor.user.id;
  const [list, unread] = await Promise.all([
    readNotifications(userId, page.before !== undefined ? { seq: { lt: BigInt(page.before) } } : {}, page.limit),
    unreadCount(userId),
  ]);
  return { ...list, unread };
}

/** The bell's number: unread notifications the person can still see. */
export function unreadCount(userId: string): Promise<number> {
  return db.notification.count({ where: { AND: [visibleNotifications(userId), { readAt: null }] } });
}

/** Marks the named notifications (each must be the caller's and visible: 404 otherwise), or all of them. */
export async function markRead({ actor }: SignedInCaller, input: { ids?: string[]; all?: true }): Promise<{ unread: number }> {
  const userId = actor.user.id;
  if ((input.ids === undefined) === (input.all === undefined)) throw new ApiError('bad_request', 'body: send either ids or all: true.');
  const where: Prisma.NotificationWhereInput = { AND: [visibleNotifications(userId), input.ids ? { id: { in: input.ids } } : {}] };
  if (input.ids) {
    const found = new Set((await db.notification.findMany({ where, select: { id: true } })).map((n) => n.id));
    const missing = input.ids.find((id) => !found.has(id));
    if (missing) throw new ApiError('not_found', `No notification ${missing.slice(0, 100)}.`);
  }
  await db.notification.updateMany({ where: { AND: [where, { readAt: null }] }, data: { readAt: new Date() } });
  return { unread: await unreadCount(userId) };
}

/** Which kinds are also e-mailed to the caller. */
export async function notificationSettings({ actor }: SignedInCaller): Promise<NotificationSettings> {
  return db.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { mailOn: true } });
}

export async function updateNotificationSettings({ actor }: SignedInCaller, changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
  const data = changes.mailOn ? { mailOn: [...new Set(changes.mailOn)] } : {};
  return db.user.update({ where: { id: actor.user.id }, data, select: { mailOn: true } });
}
