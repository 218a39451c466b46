// The signed-in person of a server-rendered page, from the session cookie.
import { cookies } from 'next/headers';
import { actorForSecret, SESSION_COOKIE, type Actor } from './tokens.ts';

export async function pageActor(): Promise<Actor | null> {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  return secret ? actorForSecret(secret) : null;
}
