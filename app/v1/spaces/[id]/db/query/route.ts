import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { runQuery } from '@/lib/spacedb/database.ts';

// The body (up to a replayed dump's size) is read only once the caller may view the space.
export const POST = route(spacedbApi.query, async ({ caller, params, readBody }) => runQuery(caller, params.id, readBody));
