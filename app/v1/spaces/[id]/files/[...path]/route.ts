import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { readFile } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.file, async ({ actor, params, query, request }) => readFile(callerOf(actor, request), params.id, params.path, query.v));
