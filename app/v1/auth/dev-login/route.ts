import { devLogin } from '@/lib/auth/dev-login.ts';
import { sessionCookie } from '@/lib/auth/tokens.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const POST = route(accountsApi.devLogin, async ({ body }) => {
  const result = await devLogin(body);
  // A web session is also set as the browser's session cookie.
  if (body.label === 'web') return Response.json(result, { headers: { 'set-cookie': sessionCookie(result.token) } });
  return result;
});
