import { listDeploys } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.deploys, async ({ caller, params }) => listDeploys(caller, params.id));
