import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { overview } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.overview, async ({ caller, params }) => overview(caller, params.id));
