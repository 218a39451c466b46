// Issuing and checking bearer secrets: API tokens (the CLI's) and web sessions.
import { LRUCache } from 'lru-cache';
import type { Actor, SignedInCaller } from '../core/caller.ts';
import { config } from '../config.ts';
import { db, query, type Prisma } from '../db/client.ts';
import type { TokenKind } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { publishRoomEvent } from '../db/bus.ts';
import type { TokenListing } from '../schemas/auth.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { sessionCookieName } from './session-cookie.ts';

const DAY = 24 * 60 * 60 * 1000;

/** Idle lifetime: a token expires this long after its last use. */
export const TOKEN_IDLE_LIFETIME: Record<TokenKind, number> = {
  api: 90 * DAY,
  web: 30 * DAY,
};

/** Last use is recorded at most this often, so reading a token rarely writes. */
const LAST_USE_RESOLUTION = 60 * 60 * 1000;

export const SESSION_COOKIE = sessionCookieName(config.publicUrl);

/** A new token or session for the user; `secret` is given when the caller chose it. */
export async function issueToken(
  userId: string,
  kind: TokenKind,
  label: string,
  options: { client?: Prisma.TransactionClient; secret?: string } = {},
): Promise<string> {
  const secret = options.secret ?? newSecret(kind === 'api' ? 'apiToken' : 'webSession');
  const now = Date.now();
  await (options.client ?? db).token.create({
    data: {
      id: newId('token'),
      userId,
      kind,
      label,
      hash: hashSecret(secret),
      createdAt: new Date(now),
      expiresAt: new Date(now + TOKEN_IDLE_LIFETIME[kind]),
    },
  });
  return secret;
}

type TokenRow = { id: string; kind: TokenKind; lastUsedAt: Date | null; userId: string; handle: string; name: string | null };

/** The 401's message for a Bearer token that is not (or no longer) live. */
export const TOKEN_REFUSED = 'The token is invalid, expired or revoked; sign in again.';

/**
 * When the token row `t` is live: it exists (revoking deletes it) and has not
 * expired. The one rule, for every statement that checks a token.
 */
export const LIVE_TOKEN = `(t."expiresAt" IS NULL OR t."expiresAt" > now())`;

/**
 * The caller behind a secret, or null when it is unknown or expired. Every
 * authenticated request asks this, so it is one plain-SQL statement (token
 * joined to its user) and, at most hourly per token, a write of its last use.
 */
export async function actorForSecret(secret: string): Promise<Actor | null> {
  const hash = hashSecret(secret);
  const [token] = await query<TokenRow>(
    `SELECT t."id", t."kind", t."lastUsedAt", u."id" AS "userId", u."handle", u."name"
       FROM "Token" t JOIN "User" u ON u."id" = t."userId" WHERE t."hash" = $1 AND ${LIVE_TOKEN}`,
    [hash],
  );
  if (!token) {
    recent.delete(hash);
    return null;
  }
  const now = Date.now();
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USE_RESOLUTION) {
    await query(`UPDATE "Token" SET "lastUsedAt" = $2, "expiresAt" = $3 WHERE "id" = $1`, [
      token.id,
      new Date(now),
      new Date(now + TOKEN_IDLE_LIFETIME[token.kind]),
    ]);
  }
  const actor = { user: { id: token.userId, handle: token.handle, name: token.name }, token: { id: token.id, kind: token.kind } };
  recent.set(hash, actor);
  return actor;
}

// The actors of the last minute's lookups, by token hash, for endpoints whose
// handler checks the token in its own statement (Endpoint.checksOwnToken).
// Never trusted alone: a hit only names who the caller claims to be. Shorter
// than LAST_USE_RESOLUTION, so the hourly record of use still happens.
const RECENT_MS = 60_000;
const RECENT_MAX = 10_000;
const recent = new LRUCache<string, Actor>({ max: RECENT_MAX, ttl: RECENT_MS });

/** The actor a live lookup found for this secret within the last minute, or null. */
export function recentActor(secret: string): Actor | null {
  return recent.get(hashSecret(secret)) ?? null;
}

/** Drops a token's remembered actor once a statement found it revoked or expired. */
export function forgetToken(tokenId: string): void {
  for (const [hash, actor] of recent.entries()) if (actor.token.id === tokenId) recent.delete(hash);
}

export function sessionCookie(secret: string): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const maxAge = Math.floor(TOKEN_IDLE_LIFETIME.web / 1000);
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The caller's live API tokens and web sessions, newest first. */
export async function listTokens({ actor }: SignedInCaller): Promise<{ tokens: TokenListing[] }> {
  const tokens = await db.token.findMany({
    where: { userId: actor.user.id, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    select: { id: true, label: true, createdAt: true, lastUsedAt: true, expiresAt: true },
  });
  return {
    tokens: tokens.map((t) => ({
      id: t.id,
      label: t.label,
      createdAt: t.createdAt.getTime(),
      lastUsedAt: t.lastUsedAt?.getTime() ?? null,
      expiresAt: t.expiresAt?.getTime() ?? null,
      current: t.id === actor.token.id,
    })),
  };
}

/** Revokes one of the caller's own tokens; any other id is not found. */
export async function revokeToken({ actor }: SignedInCaller, tokenId: string): Promise<void> {
  const { count } = await db.token.deleteMany({ where: { id: tokenId, userId: actor.user.id } });
  if (count === 0) throw new ApiError('not_found', 'You have no token with that id.');
  // Sockets opened with a ticket of that token end now, on every node.
  await publishRoomEvent({ kind: 'access', roomId: null });
}

/** Revokes the API token making the request (signing the CLI out). */
export async function revokeCurrentToken({ actor }: SignedInCaller): Promise<void> {
  if (actor.token.kind === 'web') {
    throw new ApiError('bad_request', 'This is a web session, not an API token: sign out of the web app instead.');
  }
  await db.token.deleteMany({ where: { id: actor.token.id } });
  await publishRoomEvent({ kind: 'access', roomId: null });
}

/** Ends the web session whose secret is given (sign-out); unknown secrets are ignored. */
export async function endSession(secret: string): Promise<void> {
  const { count } = await db.token.deleteMany({ where: { hash: hashSecret(secret), kind: 'web' } });
  if (count > 0) await publishRoomEvent({ kind: 'access', roomId: null });
}

/** A new API token for the caller, made in the web app (settings); its secret is answered this once. */
export async function createApiToken({ actor }: SignedInCaller, label: string): Promise<{ token: string; id: string; label: string; expiresAt: number | null }> {
  const secret = await issueToken(actor.user.id, 'api', label);
  const row = await db.token.findUniqueOrThrow({ where: { hash: hashSecret(secret) }, select: { id: true, label: true, expiresAt: true } });
  return { token: secret, id: row.id, label: row.label, expiresAt: row.expiresAt?.getTime() ?? null };
}
