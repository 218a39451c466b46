import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { downloadLink } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.downloadLink, async ({ actor, params, query, request }) => downloadLink(callerOf(actor, request), params.id, params.path, query.v));
