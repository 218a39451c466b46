import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { exists } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.exists, async ({ caller, params }) => exists(caller, params.id));
