import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { deleteRoom, getRoom, patchRoom } from '@/lib/rooms/rooms.ts';

export const GET = route(roomsApi.get, async ({ caller, params }) => getRoom(caller, 'room', params.id) as never);
export const PATCH = route(roomsApi.patch, async ({ caller, params, body }) => patchRoom(caller, 'room', params.id, body) as never);
export const DELETE = route(roomsApi.delete, async ({ caller, params }) => deleteRoom(caller, 'room', params.id));
