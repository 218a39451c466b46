import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { deleteUpload } from '@/lib/spaces/uploads.ts';

export const DELETE = route(spacesApi.deleteUpload, async ({ caller, params }) => deleteUpload(caller, params.id, params.uploadId));
