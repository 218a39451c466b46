import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { revokeInvite } from '@/lib/rooms/people.ts';

export const DELETE = route(roomsApi.revokeInvite, async ({ caller, params }) => revokeInvite(caller, 'room', params.id, params.inviteId));
