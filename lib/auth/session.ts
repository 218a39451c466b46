// The signed-in person of a server-rendered page, from the session cookie.
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { actorForSecret, SESSION_COOKIE, type Actor } from './tokens.ts';

export async function pageActor(): Promise<Actor | null> {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  return secret ? actorForSecret(secret) : null;
}

/** The signed-in person, or a redirect to sign-in that comes back to `returnTo`. */
export async function requirePageActor(returnTo: string): Promise<Actor> {
  const actor = await pageActor();
  if (!actor) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return actor;
}
