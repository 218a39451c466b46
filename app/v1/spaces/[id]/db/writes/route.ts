import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { listWrites } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.writes, async ({ caller, params, query }) => listWrites(caller, params.id, query.limit));
