import { route } from '@/server/http/route.ts';
import { searchApi } from '@/lib/schemas/search.ts';
import { search } from '@/lib/search/search.ts';

export const GET = route(searchApi.search, async ({ caller, query }) => ({ results: await search(caller, query.q, query.limit) }));
