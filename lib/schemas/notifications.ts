// The inbox: what happened to the caller's comments, mentions, memberships and
// apps. lib/notifications holds the implementation, lib/access/notifications.ts
// what a person may still see.
import { z } from 'zod';
import { text, timestamp, user, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';
import { workspaceRole } from './workspaces.ts';

export const notificationKind = z
  .enum(['mention', 'reply', 'resolved', 'invited', 'role_changed', 'app_live'])
  .meta({ description: 'mention: you were @mentioned in a comment or on a page of a room or live space; reply: someone replied to your thread; resolved: your thread was resolved; invited: you were invited to a workspace; role_changed: your role in a workspace changed; app_live: an app of your workspace went live.' });

const mailOn = z.array(notificationKind).meta({ description: 'The notification kinds also e-mailed (when the server sends mail); ["mention"] at first.' });

export const notificationSettings = z.object({ mailOn }).meta({ id: 'NotificationSettings' });

export const notification = z
  .object({
    id: z.string(),
    kind: notificationKind,
    read: z.boolean(),
    createdAt: timestamp,
    actor: user.nullable().meta({ description: 'Who caused it; null when their account was deleted.' }),
    workspace: z.object({ slug: z.string(), name: z.string() }),
    space: z.object({ id: z.string(), name: z.string() }).nullable().meta({ description: 'The space of the comment (mention, reply, resolved).' }),
    comment: z.object({ id: z.string(), path: z.string(), body: z.string() }).nullable().meta({ description: 'The comment: the new one (mention, reply) or the resolved thread; body is its first 200 characters.' }),
    app: z.object({ id: z.string(), name: z.string() }).nullable(),
    room: z
      .object({ id: z.string(), kind: z.enum(['room', 'live']), name: z.string(), pageId: z.string() })
      .nullable()
      .meta({ description: 'The room or live space, and the page of it, where you were mentioned (mention on a page).' }),
    role: workspaceRole.nullable().meta({ description: 'The role offered (invited) or given (role_changed).' }),
    path: z.string().meta({ description: 'Its place in the web app.' }),
  })
  .meta({ id: 'Notification' });

export const notificationPage = z
  .object({
    notifications: z.array(notification).meta({ description: 'Newest first; only about what the caller can still see.' }),
    unread: z.number().int().meta({ description: 'Unread notifications in all, on every page.' }),
    next: z.number().int().nullable().meta({ description: 'Pass as `before` for older notifications; null on the last page.' }),
  })
  .meta({ id: 'NotificationPage' });

export const notificationsApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/notifications',
    summary: "The caller's notifications, newest first, with the unread count",
    tag: 'Notifications',
    auth: 'user',
    query: z.object({
      before: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: 'The `next` of the previous page.' }),
      limit: wholeNumber(1, 100).default(30).meta({ description: 'From 1 to 100; 30 when absent.' }),
    }),
    response: notificationPage,
    errors: [400, 401],
  }),
  read: endpoint({
    method: 'POST',
    path: '/v1/notifications/read',
    summary: 'Mark notifications read: those named by `ids`, or all with `all: true`',
    tag: 'Notifications',
    auth: 'user',
    body: z.object({
      ids: z.array(text().min(1).max(100)).min(1).max(100).optional().meta({ description: 'Up to 100 of the caller’s notifications; an id that is not theirs is 404.' }),
      all: z.literal(true).optional().meta({ description: 'Every notification of the caller.' }),
    }),
    response: z.object({ unread: z.number().int().meta({ description: 'Unread notifications left.' }) }),
    errors: [400, 401, 404],
  }),
  settings: endpoint({
    method: 'GET',
    path: '/v1/me/notification-settings',
    summary: 'Which notification kinds are also e-mailed to the caller',
    tag: 'Notifications',
    auth: 'user',
    response: notificationSettings,
    errors: [401],
  }),
  updateSettings: endpoint({
    method: 'PATCH',
    path: '/v1/me/notification-settings',
    summary: 'Choose which notification kinds are also e-mailed (duplicates are dropped)',
    tag: 'Notifications',
    auth: 'user',
    body: z.object({ mailOn: mailOn.max(notificationKind.options.length).optional() }),
    response: notificationSettings,
    errors: [400, 401],
  }),
};

export type NotificationKind = z.infer<typeof notificationKind>;
export type Notification = z.infer<typeof notification>;
export type NotificationPage = z.infer<typeof notificationPage>;
export type NotificationSettings = z.infer<typeof notificationSettings>;
