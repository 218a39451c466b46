import { decideCliSignIn } from '@/lib/auth/cli-sign-in.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const POST = route(authApi.cliDecide, async ({ caller, body }) => decideCliSignIn(caller, body.userCode, body.approve));
