import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { uploadRaw } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploadRaw, async ({ caller, params }) => uploadRaw(caller, params.id, params.uploadId));
