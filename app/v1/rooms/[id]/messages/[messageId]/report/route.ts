import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { reportMessage } from '@/lib/rooms/messages.ts';

export const POST = route(roomsApi.reportMessage, async ({ caller, params, body }) => reportMessage(caller, 'room', params.id, params.messageId, body.reason));
