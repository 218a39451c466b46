import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { removeDomain } from '@/lib/spaces/domains.ts';

export const DELETE = route(spacesApi.deleteDomain, async ({ caller, params }) => removeDomain(caller, params.id, params.hostname));
