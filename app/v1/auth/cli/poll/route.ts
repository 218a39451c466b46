import { pollCliSignIn } from '@/lib/auth/cli-sign-in.ts';
import { route } from '@/server/http/route.ts';
import { authApi } from '@/lib/schemas/auth.ts';

export const POST = route(authApi.cliPoll, async ({ body }) => {
  const result = await pollCliSignIn(body.deviceCode);
  // The spec answers 202 while the request waits for approval.
  return result.status === 'pending' ? Response.json(result, { status: 202 }) : result;
});
