import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { addDomain, listDomains } from '@/lib/spaces/domains.ts';

export const GET = route(spacesApi.domains, async ({ caller, params }) => ({ domains: await listDomains(caller, params.id) }));
export const POST = route(spacesApi.addDomain, async ({ caller, params, body }) => addDomain(caller, params.id, body.hostname));
