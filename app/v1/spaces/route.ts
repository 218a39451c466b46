import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { createSpace, listSpaces } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.list, async ({ actor, query }) => ({ spaces: await listSpaces(actor, query.workspace) }));
export const POST = route(spacesApi.create, async ({ actor, body }) => createSpace(actor, body));
