import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { createRoom, listRooms } from '@/lib/rooms/rooms.ts';

export const GET = route(liveSpacesApi.list, async ({ caller, query }) => ({ liveSpaces: await listRooms(caller, 'live', query.workspace) }) as never);
export const POST = route(liveSpacesApi.create, async ({ caller, body }) => createRoom(caller, 'live', body) as never);
