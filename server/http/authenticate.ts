// Who is calling: a Bearer token in Authorization, else the web session cookie.
import { actorForSecret, recentActor, SESSION_COOKIE, TOKEN_REFUSED } from '../../lib/auth/tokens.ts';
import type { Actor } from '../../lib/core/caller.ts';
import { config } from '../../lib/config.ts';
import type { HeaderReader } from '../../lib/core/client.ts';
import { ApiError } from '../../lib/core/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The value of the one cookie called `name`, or null when there is none or
 * more than one. Another host under our registrable domain can add a cookie
 * of the same name beside ours (cookie tossing), and browsers send both in an
 * order we cannot trust: taking either could sign the visitor in as someone else.
 */
export function cookieValue(request: { headers: HeaderReader }, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  let value: string | null = null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    if (value !== null) return null;
    value = part.slice(eq + 1).trim();
  }
  return value;
}

// A cookie rides along on requests that other sites make a browser send, so a
// state-changing request authenticated by cookie must come from our own pages.
function assertSameOrigin(request: Request) {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers.get('sec-fetch-site') === 'cross-site') {
    throw new ApiError('forbidden', 'Cross-site requests cannot use the session cookie.');
  }
  const origin = request.headers.get('origin');
  if (!origin) return;
  // `Origin: null` (sandboxed frames, privacy redirects) or anything that is
  // not a URL cannot prove it is ours: it counts as cross-site.
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // not a URL
  }
  const host = request.headers.get('host');
  if (origin !== new URL(config.publicUrl).origin && (originHost === null || originHost !== host)) {
    throw new ApiError('forbidden', 'Cross-site requests cannot use the session cookie.');
  }
}

/** The person the session cookie names, for reads that need no origin check (published sites). */
export async function sessionActor(request: { headers: HeaderReader }): Promise<Actor | null> {
  const cookie = cookieValue(request, SESSION_COOKIE);
  return cookie ? actorForSecret(cookie) : null;
}

/**
 * The actor, or null when no credentials were sent. A Bearer token that is
 * unknown or expired is refused (401) so that clients learn to sign in again;
 * a stale cookie simply counts as signed out. With `recent` (an endpoint whose
 * handler checks the token in its own statement), a Bearer token looked up in
 * the last minute is not looked up again.
 */
export async function authenticate(request: Request, { recent = false } = {}): Promise<Actor | null> {
  const authorization = request.headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new ApiError('unauthorized', 'The Authorization header must be "Bearer <token>".');
    const actor = (recent ? recentActor(match[1]) : null) ?? (await actorForSecret(match[1]));
    if (!actor) throw new ApiError('unauthorized', TOKEN_REFUSED);
    return actor;
  }
  const cookie = cookieValue(request, SESSION_COOKIE);
  if (!cookie) return null;
  const actor = await actorForSecret(cookie);
  if (actor) assertSameOrigin(request);
  return actor;
}
