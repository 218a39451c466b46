import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { deleteRoom, getRoom, patchRoom } from '@/lib/rooms/rooms.ts';

export const GET = route(liveSpacesApi.get, async ({ caller, params }) => getRoom(caller, 'live', params.id) as never);
export const PATCH = route(liveSpacesApi.patch, async ({ caller, params, body }) => patchRoom(caller, 'live', params.id, body) as never);
export const DELETE = route(liveSpacesApi.delete, async ({ caller, params }) => deleteRoom(caller, 'live', params.id));
