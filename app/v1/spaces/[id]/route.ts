import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf, getSpace, patchSpace } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.get, async ({ actor, params, request }) => getSpace(callerOf(actor, request), params.id));
export const PATCH = route(spacesApi.patch, async ({ actor, params, body }) => patchSpace(actor, params.id, body));
