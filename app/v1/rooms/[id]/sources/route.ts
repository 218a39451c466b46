import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { listSources, uploadSource } from '@/lib/rooms/sources.ts';

export const GET = route(roomsApi.sources, async ({ caller, params }) => listSources(caller, 'room', params.id));
export const POST = route(roomsApi.upload, async ({ caller, params, rawBody }) => uploadSource(caller, 'room', params.id, rawBody));
