import { route } from '@/server/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { uploadImage } from '@/lib/rooms/sources.ts';

export const POST = route(liveSpacesApi.image, async ({ caller, params, rawBody }) => uploadImage(caller, params.id, rawBody));
