import { route } from '@/server/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { unlockSpace } from '@/lib/spaces/unlock.ts';

export const POST = route(spacesApi.unlock, async ({ caller, params, body }) =>
  unlockSpace(caller, params.id, body.password),
);
