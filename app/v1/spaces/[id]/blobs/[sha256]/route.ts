import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { putBlob } from '@/lib/spaces/publishing.ts';

export const PUT = route(spacesApi.putBlob, async ({ caller, params, rawBody }) => putBlob(caller, params.id, params.sha256, rawBody));
