import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { recordView } from '@/lib/spaces/visitors.ts';

export const POST = route(spacesApi.views, async ({ caller, params, body }) => recordView(caller, params.id, body));
