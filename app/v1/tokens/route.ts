import { createApiToken, listTokens } from '@/lib/auth/tokens.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const GET = route(authApi.tokens, async ({ caller }) => listTokens(caller));
export const POST = route(authApi.createToken, async ({ caller, body }) => createApiToken(caller, body.label));
