import { revokeCurrentToken } from '@/lib/auth/tokens.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const DELETE = route(authApi.revokeCurrentToken, async ({ caller }) => revokeCurrentToken(caller));
