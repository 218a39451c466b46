import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { verifyDomain } from '@/lib/spaces/domains.ts';

export const POST = route(spacesApi.verifyDomain, async ({ caller, params }) => verifyDomain(caller, params.id, params.hostname));
