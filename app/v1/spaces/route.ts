import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { createSpace, listSpaces } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.list, async ({ caller, query }) => ({ spaces: await listSpaces(caller, query.workspace) }));
export const POST = route(spacesApi.create, async ({ caller, body }) => createSpace(caller, body));
