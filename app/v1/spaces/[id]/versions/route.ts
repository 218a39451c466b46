import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { commitVersion, listVersions } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.versions, async ({ caller, params }) => ({ versions: await listVersions(caller, params.id) }));
export const POST = route(spacesApi.commit, async ({ caller, params, readBody }) => commitVersion(caller, params.id, readBody));
