import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { resetDatabase } from '@/lib/spacedb/database.ts';

export const POST = route(spacedbApi.reset, async ({ caller, params }) => resetDatabase(caller, params.id));
