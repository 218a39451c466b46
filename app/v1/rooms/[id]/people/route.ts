import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { addPeople, listPeople } from '@/lib/rooms/people.ts';

export const GET = route(roomsApi.people, async ({ caller, params }) => listPeople(caller, 'room', params.id));
export const POST = route(roomsApi.addPerson, async ({ caller, params, body }) => addPeople(caller, 'room', params.id, body));
