import { getCliSignIn } from '@/lib/auth/cli-sign-in.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const GET = route(authApi.cliRequest, async ({ caller, params }) => getCliSignIn(caller, params.userCode));
