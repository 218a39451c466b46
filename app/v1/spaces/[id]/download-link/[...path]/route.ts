import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { downloadLink } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.downloadLink, async ({ caller, params, query }) => downloadLink(caller, params.id, params.path, query.v));
