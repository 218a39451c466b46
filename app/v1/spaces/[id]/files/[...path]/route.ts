import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { readFile } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.file, async ({ caller, params, query }) => readFile(caller, params.id, params.path, query.v));
