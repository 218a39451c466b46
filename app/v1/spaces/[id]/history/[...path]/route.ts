import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { fileHistory } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.history, async ({ actor, params, request }) => fileHistory(callerOf(actor, request), params.id, params.path));
