// Opening a password-protected public space. The right password gives an
// unlock token (random, stored hashed, valid 12 hours, void once the password
// changes). It is presented to the API in the X-Space-Token header and to the
// published site as a cookie scoped to the space (see serving.ts).
// Wrong passwords are counted in Postgres per space and client address:
// 10 per 15 minutes per address, 100 per 15 minutes per space, then 429.
import { db } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import { assertUnderLimit, countHit } from '../rate-limit.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { verifyPassword } from './password.ts';
import type { Caller } from './spaces.ts';
import { loadSpace } from './spaces.ts';

export const UNLOCK_LIFETIME = 12 * 60 * 60 * 1000;
const WINDOW = 15 * 60 * 1000;
export const WRONG_PASSWORDS_PER_ADDRESS = 10;
const WRONG_PASSWORDS_PER_SPACE = 100;

export async function unlockTokenValid(spaceId: string, token: string): Promise<boolean> {
  const row = await db.spaceAccessToken.findUnique({ where: { hash: hashSecret(token) }, select: { spaceId: true, purpose: true, expiresAt: true } });
  return row !== null && row.spaceId === spaceId && row.purpose === 'unlock' && row.expiresAt.getTime() > Date.now();
}

export async function unlockSpace(caller: Caller, id: string, password: string, clientAddress: string | null): Promise<{ token: string; exp: number }> {
  const { space } = await loadSpace(caller, id);
  if (space.passwordHash === null || space.visibility !== 'public') {
    throw new ApiError('bad_request', 'This space has no password to unlock.');
  }
  const keys = [
    { key: `unlock:${space.id}:${clientAddress ?? 'unknown'}`, limit: WRONG_PASSWORDS_PER_ADDRESS },
    { key: `unlock:${space.id}`, limit: WRONG_PASSWORDS_PER_SPACE },
  ];
  const tooMany = 'Too many wrong passwords for this space; wait a few minutes and try again.';
  await assertUnderLimit(keys, tooMany);
  if (!(await verifyPassword(password, space.passwordHash))) {
    await Promise.all(keys.map((k) => countHit(k.key, WINDOW)));
    throw new ApiError('unauthorized', 'Wrong password.');
  }
  const token = newSecret('spaceAccess');
  const exp = Date.now() + UNLOCK_LIFETIME;
  await db.$transaction([
    db.spaceAccessToken.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
    db.spaceAccessToken.create({ data: { hash: hashSecret(token), spaceId: space.id, purpose: 'unlock', expiresAt: new Date(exp) } }),
  ]);
  return { token, exp };
}
