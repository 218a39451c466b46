import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';
import { recordView } from '@/lib/spaces/visitors.ts';

export const POST = route(spacesApi.views, async ({ actor, params, body, request }) => recordView(callerOf(actor, request), params.id, body, request));
