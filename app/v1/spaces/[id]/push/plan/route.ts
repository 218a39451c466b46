import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { planPush } from '@/lib/spaces/publishing.ts';

export const POST = route(spacesApi.plan, async ({ caller, params, readBody }) => planPush(caller, params.id, readBody));
