import { promoteApp } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const POST = route(appsApi.promote, async ({ caller, params }) => promoteApp(caller, params.id));
