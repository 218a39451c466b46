import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { deleteSource, patchSource } from '@/lib/rooms/sources.ts';

export const PATCH = route(roomsApi.patchSource, async ({ caller, params, body }) => patchSource(caller, 'room', params.id, params.sourceId, body.hiddenFromAi));
export const DELETE = route(roomsApi.deleteSource, async ({ caller, params }) => deleteSource(caller, 'room', params.id, params.sourceId));
