import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { listSources, uploadSource } from '@/lib/rooms/sources.ts';

export const GET = route(liveSpacesApi.sources, async ({ caller, params }) => listSources(caller, 'live', params.id));
export const POST = route(liveSpacesApi.upload, async ({ caller, params, rawBody }) => uploadSource(caller, 'live', params.id, rawBody));
