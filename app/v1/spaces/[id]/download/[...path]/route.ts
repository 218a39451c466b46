import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { downloadFile } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.download, async ({ caller, params, query }) =>
  downloadFile(caller, params.id, params.path, query.v),
);
