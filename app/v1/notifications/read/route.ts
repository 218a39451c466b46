import { route } from '@/server/http/route.ts';
import { markRead } from '@/lib/notifications/notifications.ts';
import { notificationsApi } from '@/lib/schemas/notifications.ts';

export const POST = route(notificationsApi.read, async ({ caller, body }) => markRead(caller, body));
