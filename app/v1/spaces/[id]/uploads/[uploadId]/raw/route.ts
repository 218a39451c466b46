import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';
import { uploadRaw } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploadRaw, async ({ actor, params, request }) => uploadRaw(callerOf(actor, request), params.id, params.uploadId, request));
