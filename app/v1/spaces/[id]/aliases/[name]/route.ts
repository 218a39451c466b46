import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { removeAlias, setAlias } from '@/lib/spaces/aliases.ts';

export const PUT = route(spacesApi.setAlias, async ({ caller, params, body }) => setAlias(caller, params.id, params.name, body.version));
export const DELETE = route(spacesApi.deleteAlias, async ({ caller, params }) => removeAlias(caller, params.id, params.name));
