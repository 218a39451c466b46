import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf, spaceHead } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.head, async ({ actor, params, request }) => spaceHead(callerOf(actor, request), params.id));
