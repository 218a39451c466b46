// Opening a password-protected public space. The right password gives an
// unlock token (random, stored hashed, valid 12 hours, void once the password
// changes). It is presented to the API in the X-Space-Token header and to the
// published site as a cookie scoped to the space (see serving.ts).
//
// Guessing is limited twice, and both counts are taken atomically in the
// shared rate-limit store before the password is checked (so parallel tries
// cannot all slip under a limit), then given back when the password is right:
// - per space and client address (IPv6 by its /64): 10 tries in 15 minutes,
//   then 429 for that address alone;
// - per space: 100 tries in 15 minutes from clients the space does not know.
//   Past that, unknown clients get 429 without their password being checked,
//   so spreading guesses over many addresses gains nothing. Clients that
//   unlocked the space in the last 30 days (from the same address, or as the
//   same signed-in person) are known: they skip this count and their password
//   is still checked, so a burst of wrong guesses cannot lock them out.
// See docs/decisions.md ("Rate limits").
import { createHash } from 'node:crypto';
import { db } from '../db/client.ts';
import { addressKey } from '../core/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { verifyPassword } from './password.ts';
import type { Caller } from '../core/caller.ts';
import { loadSpace } from './spaces.ts';

export const UNLOCK_LIFETIME = 12 * 60 * 60 * 1000;
const WINDOW = 15 * 60;
export const TRIES_PER_ADDRESS = 10;
export const TRIES_PER_SPACE = 100;
const KNOWN_FOR = 30 * 24 * 60 * 60;

const perAddress = rateLimit({
  name: 'unlock-address',
  points: TRIES_PER_ADDRESS,
  duration: WINDOW,
  message: 'Too many wrong passwords for this space from your address; wait a few minutes and try again.',
});
const perSpace = rateLimit({
  name: 'unlock-space',
  points: TRIES_PER_SPACE,
  duration: WINDOW,
  message: 'Too many wrong passwords have been tried on this space lately; wait a few minutes and try again.',
});
// Not a limit: a 30-day memory of who opened which space (any count means known).
const known = rateLimit({ name: 'unlock-known', points: 1, duration: KNOWN_FOR, message: '' });

export async function unlockTokenValid(spaceId: string, token: string): Promise<boolean> {
  const row = await db.spaceAccessToken.findUnique({ where: { hash: hashSecret(token) }, select: { spaceId: true, purpose: true, expiresAt: true } });
  return row !== null && row.spaceId === spaceId && row.purpose === 'unlock' && row.expiresAt.getTime() > Date.now();
}

/**
 * The keys under which a client is remembered as having opened a space: its
 * address (hashed, as it is kept for 30 days) and the signed-in person.
 */
function knownKeys(spaceId: string, caller: Caller, address: string): string[] {
  const keys = caller.actor ? [`${spaceId}:user:${caller.actor.user.id}`] : [];
  // Clients whose address the server cannot know share one key: never "known".
  if (address !== 'unknown') keys.push(`${spaceId}:address:${createHash('sha256').update(`${spaceId}\n${address}`).digest('base64url')}`);
  return keys;
}

export async function unlockSpace(caller: Caller, id: string, password: string): Promise<{ token: string; exp: number }> {
  const { space } = await loadSpace(caller, id);
  if (space.passwordHash === null || space.visibility !== 'public') {
    throw new ApiError('bad_request', 'This space has no password to unlock.');
  }
  const address = addressKey(caller.client.address);
  const addressTries = `${space.id}:${address}`;
  await perAddress.consume(addressTries);
  const remembered = knownKeys(space.id, caller, address);
  const isKnown = (await Promise.all(remembered.map((key) => known.peek(key)))).some((count) => count !== null);
  if (!isKnown) {
    try {
      await perSpace.consume(space.id);
    } catch (error) {
      // The password was not checked: this was no try of the address's.
      await perAddress.refund(addressTries);
      throw error;
    }
  }
  if (!(await verifyPassword(password, space.passwordHash))) {
    throw new ApiError('unauthorized', 'Wrong password.');
  }
  await Promise.all([
    perAddress.refund(addressTries),
    ...(isKnown ? [] : [perSpace.refund(space.id)]),
    // Known for 30 days from this unlock (a fresh window, not the rest of an old one).
    ...remembered.map((key) => known.reset(key).then(() => known.penalize(key))),
  ]);
  const token = newSecret('spaceAccess');
  const exp = Date.now() + UNLOCK_LIFETIME;
  await db.$transaction([
    db.spaceAccessToken.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
    db.spaceAccessToken.create({ data: { hash: hashSecret(token), spaceId: space.id, purpose: 'unlock', expiresAt: new Date(exp) } }),
  ]);
  return { token, exp };
}
