import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { changeRole, removePerson } from '@/lib/rooms/people.ts';

export const PATCH = route(roomsApi.changeRole, async ({ caller, params, body }) => changeRole(caller, 'room', params.id, params.handle, body.role));
export const DELETE = route(roomsApi.removePerson, async ({ caller, params }) => removePerson(caller, 'room', params.id, params.handle));
