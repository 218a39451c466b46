import { route } from '@/lib/http/route.ts';
import { roomsApi } from '@/lib/schemas/rooms.ts';
import { roomMarkdown } from '@/lib/rooms/rooms.ts';

export const GET = route(roomsApi.markdown, async ({ caller, params }) => roomMarkdown(caller, 'room', params.id));
