import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { spaceHead } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.head, async ({ caller, params }) => spaceHead(caller, params.id));
