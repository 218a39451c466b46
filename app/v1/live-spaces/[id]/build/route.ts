import { buildApp } from '@/lib/apps/apps.ts';
import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';

export const POST = route(liveSpacesApi.build, async ({ caller, params, body }) => buildApp(caller, 'live', params.id, body));
