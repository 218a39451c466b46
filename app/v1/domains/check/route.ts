import { ApiError } from '@/lib/core/errors.ts';
import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { mayServe } from '@/lib/spaces/domains.ts';

export const GET = route(spacesApi.domainCheck, async ({ query }) => {
  if (!(await mayServe(query.domain))) throw new ApiError('not_found', `${query.domain.slice(0, 100)} is not an active domain here.`);
  return { domain: query.domain, active: true as const };
});
