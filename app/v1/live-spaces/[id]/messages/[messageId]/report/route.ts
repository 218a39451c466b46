import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { reportMessage } from '@/lib/rooms/messages.ts';

export const POST = route(liveSpacesApi.reportMessage, async ({ caller, params, body }) => reportMessage(caller, 'live', params.id, params.messageId, body.reason));
