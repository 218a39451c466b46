import { route } from '@/server/http/route.ts';
import { listNotifications } from '@/lib/notifications/notifications.ts';
import { notificationsApi } from '@/lib/schemas/notifications.ts';

export const GET = route(notificationsApi.list, async ({ caller, query }) => listNotifications(caller, query));
