import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { revokeInvite } from '@/lib/rooms/people.ts';

export const DELETE = route(liveSpacesApi.revokeInvite, async ({ caller, params }) => revokeInvite(caller, 'live', params.id, params.inviteId));
