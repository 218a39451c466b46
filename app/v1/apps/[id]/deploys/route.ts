import { listDeploys } from '@/lib/apps/apps.ts';
import { route } from '@/lib/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.deploys, async ({ caller, params }) => listDeploys(caller, params.id));
