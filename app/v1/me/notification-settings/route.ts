import { route } from '@/server/http/route.ts';
import { notificationSettings, updateNotificationSettings } from '@/lib/notifications/notifications.ts';
import { notificationsApi } from '@/lib/schemas/notifications.ts';

export const GET = route(notificationsApi.settings, async ({ caller }) => notificationSettings(caller));
export const PATCH = route(notificationsApi.updateSettings, async ({ caller, body }) => updateNotificationSettings(caller, body));
