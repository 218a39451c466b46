import { listApps } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.list, async ({ caller, query }) => ({ apps: await listApps(caller, query) }));
