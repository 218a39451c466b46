import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { fileHistory } from '@/lib/spaces/publishing.ts';

export const GET = route(spacesApi.history, async ({ caller, params }) => fileHistory(caller, params.id, params.path));
