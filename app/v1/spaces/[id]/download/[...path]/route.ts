import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { downloadFile } from '@/lib/spaces/publishing.ts';
import { callerOf } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.download, async ({ actor, params, query, request }) =>
  downloadFile(callerOf(actor, request), params.id, params.path, query.v, request),
);
