import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { issueTicket } from '@/lib/rooms/rooms.ts';

export const POST = route(roomsApi.ticket, async ({ caller, params }) => issueTicket(caller, 'room', params.id));
