import { route } from '@/server/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { acceptRoomInvite } from '@/lib/rooms/people.ts';

export const POST = route(roomsApi.acceptInvite, async ({ caller, body }) => ({ roomId: await acceptRoomInvite(caller, 'room', body.token) }));
