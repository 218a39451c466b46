import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { uploadLink } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploadLink, async ({ caller, params }) => uploadLink(caller, params.id, params.uploadId));
