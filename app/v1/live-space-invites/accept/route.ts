import { route } from '@/server/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { acceptRoomInvite } from '@/lib/rooms/people.ts';

export const POST = route(liveSpacesApi.acceptInvite, async ({ caller, body }) => ({ liveSpaceId: await acceptRoomInvite(caller, 'live', body.token) }));
