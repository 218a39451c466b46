import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { commitVersion, listVersions } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.versions, async ({ actor, params, request }) => ({ versions: await listVersions(callerOf(actor, request), params.id) }));
export const POST = route(spacesApi.commit, async ({ actor, params, readBody }) => commitVersion(actor, params.id, readBody));
