import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { deleteSpace } from '@/lib/spaces/deletion.ts';
import { getSpace, patchSpace } from '@/lib/spaces/spaces.ts';

export const GET = route(spacesApi.get, async ({ caller, params }) => getSpace(caller, params.id));
export const PATCH = route(spacesApi.patch, async ({ caller, params, body }) => patchSpace(caller, params.id, body));
export const DELETE = route(spacesApi.remove, async ({ caller, params }) => deleteSpace(caller, params.id));
