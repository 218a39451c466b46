import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { deleteMessage } from '@/lib/rooms/messages.ts';

export const DELETE = route(roomsApi.deleteMessage, async ({ caller, params }) => deleteMessage(caller, 'room', params.id, params.messageId));
