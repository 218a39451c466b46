import { clientAddress } from '@/lib/http/client.ts';
import { route } from '@/lib/http/route.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { unlockSpace } from '@/lib/spaces/unlock.ts';

export const POST = route(spacesApi.unlock, async ({ actor, params, body, request }) =>
  unlockSpace({ actor }, params.id, body.password, clientAddress(request)),
);
