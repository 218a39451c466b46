import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { deleteMessage } from '@/lib/rooms/messages.ts';

export const DELETE = route(liveSpacesApi.deleteMessage, async ({ caller, params }) => deleteMessage(caller, 'live', params.id, params.messageId));
