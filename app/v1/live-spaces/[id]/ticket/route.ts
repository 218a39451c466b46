import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { issueTicket } from '@/lib/rooms/rooms.ts';

export const POST = route(liveSpacesApi.ticket, async ({ caller, params }) => issueTicket(caller, 'live', params.id));
