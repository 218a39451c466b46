import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { visitorStats } from '@/lib/spaces/visitors.ts';

export const GET = route(spacesApi.visitors, async ({ caller, params, query }) => visitorStats(caller, params.id, query.days));
