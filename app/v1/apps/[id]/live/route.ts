import { goLive } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const POST = route(appsApi.live, async ({ caller, params, body }) => goLive(caller, params.id, body));
