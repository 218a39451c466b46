import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { restoreDatabase } from '@/lib/spacedb/database.ts';

export const POST = route(spacedbApi.restore, async ({ caller, params, body }) => restoreDatabase(caller, params.id, body.at));
