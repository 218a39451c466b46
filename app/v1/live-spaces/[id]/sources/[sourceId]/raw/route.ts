import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { sourceRaw } from '@/lib/rooms/sources.ts';

export const GET = route(liveSpacesApi.sourceRaw, async ({ caller, params }) => sourceRaw(caller, 'live', params.id, params.sourceId));
