import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { deleteSource, patchSource } from '@/lib/rooms/sources.ts';

export const PATCH = route(liveSpacesApi.patchSource, async ({ caller, params, body }) => patchSource(caller, 'live', params.id, params.sourceId, body.hiddenFromAi));
export const DELETE = route(liveSpacesApi.deleteSource, async ({ caller, params }) => deleteSource(caller, 'live', params.id, params.sourceId));
