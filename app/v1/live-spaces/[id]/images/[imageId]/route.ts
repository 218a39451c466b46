import { route } from '@/server/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { imageRaw } from '@/lib/rooms/sources.ts';

export const GET = route(liveSpacesApi.imageRaw, async ({ caller, params }) => imageRaw(caller, params.id, params.imageId));
