import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { changeRole, removePerson } from '@/lib/rooms/people.ts';

export const PATCH = route(liveSpacesApi.changeRole, async ({ caller, params, body }) => changeRole(caller, 'live', params.id, params.handle, body.role));
export const DELETE = route(liveSpacesApi.removePerson, async ({ caller, params }) => removePerson(caller, 'live', params.id, params.handle));
