import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { listAliases } from '@/lib/spaces/aliases.ts';

export const GET = route(spacesApi.aliases, async ({ caller, params }) => ({ aliases: await listAliases(caller, params.id) }));
