// Who is asking, built once per request (server/http/route.ts) or per page
// (server/http/session.ts) and handed to every domain function: the signed-in
// person or nobody, a space's unlock token, and the client (address, user
// agent, and location behind a trusted proxy). Domain code decides what the
// caller may do by asking lib/access; it never sees the request itself.
import type { TokenKind } from '../db/generated/client.ts';

/** The signed-in person, and the token or session they came with. */
export type Actor = {
  user: { id: string; handle: string; name: string | null };
  token: { id: string; kind: TokenKind };
};

export type Location = { city: string | null; country: string | null };

export type Client = {
  /** The client's address; null when the server cannot know it. */
  address: string | null;
  userAgent: string | null;
  /** City and country from a trusted proxy's headers; null otherwise. */
  location: Location | null;
};

export type Caller = {
  actor: Actor | null;
  /** An unlock token for a password-protected space (X-Space-Token, or the site's cookie). */
  spaceToken: string | null;
  client: Client;
};

/** A caller known to be signed in (routes with `auth: 'user'` or `'web'`). */
export type SignedInCaller = Caller & { actor: Actor };

export const UNKNOWN_CLIENT: Client = { address: null, userAgent: null, location: null };

/** A caller for code that acts without a request (pages, jobs, tests). */
export function callerAs<A extends Actor | null>(actor: A, more: Partial<Omit<Caller, 'actor'>> = {}): Caller & { actor: A } {
  return { actor, spaceToken: null, client: UNKNOWN_CLIENT, ...more };
}
