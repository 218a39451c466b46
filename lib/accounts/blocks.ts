// Blocking: the blocked user's room chat stops reaching the blocker (from the
// blocker's next connect; the realtime server reads the list then).
import type { SignedInCaller } from '../core/caller.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import type { User } from '../schemas/accounts.ts';

export async function blockUser({ actor }: SignedInCaller, userId: string): Promise<void> {
  if (userId === actor.user.id) throw new ApiError('bad_request', 'You cannot block yourself.');
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new ApiError('not_found', 'There is no user with that id.');
  await db.userBlock.createMany({ data: [{ blockerId: actor.user.id, blockedId: userId }], skipDuplicates: true });
}

export async function unblockUser({ actor }: SignedInCaller, userId: string): Promise<void> {
  await db.userBlock.deleteMany({ where: { blockerId: actor.user.id, blockedId: userId } });
}

/** The people the caller blocked, earliest first (for the settings page). */
export async function listBlockedUsers({ actor }: SignedInCaller): Promise<User[]> {
  const blocks = await db.userBlock.findMany({
    where: { blockerId: actor.user.id },
    orderBy: { createdAt: 'asc' },
    select: { blocked: { select: { id: true, handle: true, name: true } } },
  });
  return blocks.map((b) => b.blocked);
}
