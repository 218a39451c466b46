import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { versionDetail } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.version, async ({ actor, params, request }) => versionDetail(callerOf(actor, request), params.id, params.n));
