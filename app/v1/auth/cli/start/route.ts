import { startCliSignIn } from '@/lib/auth/cli-sign-in.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const POST = route(authApi.cliStart, async ({ caller, body }) => startCliSignIn(caller, body.label));
