// Who is asking for a server-rendered page: the session cookie's person, as
// the same caller the API's domain functions take.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Caller, SignedInCaller } from '../../lib/core/caller.ts';
import { sessionActor } from './authenticate.ts';
import { clientOf } from '../../lib/core/client.ts';

export async function pageCaller(): Promise<Caller> {
  const request = { headers: await headers() };
  return { actor: await sessionActor(request), spaceToken: null, client: clientOf(request) };
}

/** The signed-in caller, or a redirect to sign-in that comes back to `returnTo`. */
export async function requirePageCaller(returnTo: string): Promise<SignedInCaller> {
  const caller = await pageCaller();
  if (!caller.actor) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return caller as SignedInCaller;
}
