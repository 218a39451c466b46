import { buildApp } from '@/lib/apps/apps.ts';
import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';

export const POST = route(roomsApi.build, async ({ caller, params, body }) => buildApp(caller, 'room', params.id, body));
