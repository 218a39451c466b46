import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { compareVersions } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.compare, async ({ caller, params, query }) => compareVersions(caller, params.id, query));
