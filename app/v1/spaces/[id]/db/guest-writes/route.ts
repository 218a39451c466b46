import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { getGuestWrites, putGuestWrites } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.guestWrites, async ({ caller, params }) => getGuestWrites(caller, params.id));
export const PUT = route(spacedbApi.putGuestWrites, async ({ caller, params, body }) => putGuestWrites(caller, params.id, body.statements));
