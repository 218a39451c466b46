import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { createUpload, listUploads } from '@/lib/spaces/uploads.ts';

export const GET = route(spacesApi.uploads, async ({ caller, params, rawBody }) => ({ uploads: await listUploads(caller, params.id) }));
export const POST = route(spacesApi.upload, async ({ caller, params, query, rawBody }) => createUpload(caller, params.id, query.name, rawBody));
