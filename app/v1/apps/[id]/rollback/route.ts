import { rollbackApp } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const POST = route(appsApi.rollback, async ({ caller, params, body }) => rollbackApp(caller, params.id, body.deploy));
