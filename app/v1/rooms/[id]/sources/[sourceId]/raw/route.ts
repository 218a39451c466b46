import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { sourceRaw } from '@/lib/rooms/sources.ts';

export const GET = route(roomsApi.sourceRaw, async ({ caller, params }) => sourceRaw(caller, 'room', params.id, params.sourceId));
