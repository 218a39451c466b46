import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';
import { createUpload, listUploads } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploads, async ({ actor, params, request }) => ({ uploads: await listUploads(callerOf(actor, request), params.id) }));
export const POST = route(spacesApi.upload, async ({ actor, params, query, request }) => createUpload(actor, params.id, query.name, request));
