import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { addPeople, listPeople } from '@/lib/rooms/people.ts';

export const GET = route(liveSpacesApi.people, async ({ caller, params }) => listPeople(caller, 'live', params.id));
export const POST = route(liveSpacesApi.addPerson, async ({ caller, params, body }) => addPeople(caller, 'live', params.id, body));
