// Issuing and checking bearer secrets: API tokens (the CLI's) and web sessions.
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { TokenKind } from '../db/generated/client.ts';
import { newId } from '../ids.ts';
import { hashSecret, newSecret } from '../secrets.ts';

const DAY = 24 * 60 * 60 * 1000;

/** Idle lifetime: a token expires this long after its last use. */
export const TOKEN_IDLE_LIFETIME: Record<TokenKind, number> = {
  api: 90 * DAY,
  web: 30 * DAY,
};

/** Last use is recorded at most this often, so reading a token rarely writes. */
const LAST_USE_RESOLUTION = 60 * 60 * 1000;

export const SESSION_COOKIE = 'atrium_session';

export type Actor = {
  user: { id: string; handle: string; name: string | null };
  token: { id: string; kind: TokenKind };
};

export async function issueToken(userId: string, kind: TokenKind, label: string): Promise<string> {
  const secret = newSecret(kind === 'api' ? 'apiToken' : 'webSession');
  const now = Date.now();
  await db.token.create({
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

/** The caller behind a secret, or null when it is unknown or expired. */
export async function actorForSecret(secret: string): Promise<Actor | null> {
  const token = await db.token.findUnique({
    where: { hash: hashSecret(secret) },
    select: {
      id: true,
      kind: true,
      lastUsedAt: true,
      expiresAt: true,
      user: { select: { id: true, handle: true, name: true } },
    },
  });
  if (!token) return null;
  const now = Date.now();
  if (token.expiresAt && token.expiresAt.getTime() <= now) return null;
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USE_RESOLUTION) {
    await db.token.update({
      where: { id: token.id },
      data: { lastUsedAt: new Date(now), expiresAt: new Date(now + TOKEN_IDLE_LIFETIME[token.kind]) },
    });
  }
  return { user: token.user, token: { id: token.id, kind: token.kind } };
}

export function sessionCookie(secret: string): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const maxAge = Math.floor(TOKEN_IDLE_LIFETIME.web / 1000);
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}
