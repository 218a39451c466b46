import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';
import { uploadLink } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploadLink, async ({ actor, params, request }) => uploadLink(callerOf(actor, request), params.id, params.uploadId));
