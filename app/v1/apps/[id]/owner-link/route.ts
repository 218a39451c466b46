import { ownerLink } from '@/lib/apps/serving.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const POST = route(appsApi.ownerLink, async ({ caller, params }) => ownerLink(caller, params.id));
