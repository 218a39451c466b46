import { listEndUsers } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.users, async ({ caller, params }) => listEndUsers(caller, params.id));
