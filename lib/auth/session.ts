// Who is asking for a server-rendered page: the session cookie's person, as
// the same caller the API's domain functions take.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Caller, SignedInCaller } from '../access/caller.ts';
import { clientOf } from '../http/client.ts';
import { actorForSecret, SESSION_COOKIE } from './tokens.ts';

export async function pageCaller(): Promise<Caller> {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  const actor = secret ? await actorForSecret(secret) : null;
  return { actor, spaceToken: null, client: clientOf({ headers: await headers() }) };
}

/** The signed-in caller, or a redirect to sign-in that comes back to `returnTo`. */
export async function requirePageCaller(returnTo: string): Promise<SignedInCaller> {
  const caller = await pageCaller();
  if (!caller.actor) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return caller as SignedInCaller;
}
