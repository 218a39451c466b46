import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { createRoom, listRooms } from '@/lib/rooms/rooms.ts';

export const GET = route(roomsApi.list, async ({ caller, query }) => ({ rooms: await listRooms(caller, 'room', query.workspace) }) as never);
export const POST = route(roomsApi.create, async ({ caller, body }) => createRoom(caller, 'room', body) as never);
