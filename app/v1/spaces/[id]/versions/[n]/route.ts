import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { versionDetail } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.version, async ({ caller, params }) => versionDetail(caller, params.id, params.n));
