import { route } from '@/lib/http/route.ts';
import { liveSpacesApi } from '@/lib/schemas/rooms.ts';
import { roomMarkdown } from '@/lib/rooms/rooms.ts';

export const GET = route(liveSpacesApi.markdown, async ({ caller, params }) => roomMarkdown(caller, 'live', params.id));
