// A person's profile: the display name they choose, and what another signed-in
// person sees on /u/<handle> (name, handle, the workspaces both belong to,
// whether they blocked them). Nothing else about a person is shown to others.
import type { SignedInCaller } from '../core/caller.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import type { User } from '../schemas/accounts.ts';

/** Sets (or, with null or blanks, clears) the caller's display name. */
export async function setDisplayName({ actor }: SignedInCaller, name: string | null): Promise<User> {
  const trimmed = name?.trim() || null;
  return db.user.update({ where: { id: actor.user.id }, data: { name: trimmed }, select: { id: true, handle: true, name: true } });
}

export type PublicProfile = {
  user: User;
  self: boolean;
  blocked: boolean;
  /** Workspaces both people belong to (accepted memberships), by name. */
  shared: { slug: string; name: string }[];
};

/** The profile of the person with `handle`, as the caller sees it; 404 for no such person. */
export async function publicProfile({ actor }: SignedInCaller, handle: string): Promise<PublicProfile> {
  const user = await db.user.findUnique({ where: { handle: handle.toLowerCase() }, select: { id: true, handle: true, name: true } });
  if (!user) throw new ApiError('not_found', 'There is no one with that handle.');
  const [shared, block] = await Promise.all([
    db.workspace.findMany({
      where: {
        AND: [
          { memberships: { some: { userId: user.id, status: 'accepted' } } },
          { memberships: { some: { userId: actor.user.id, status: 'accepted' } } },
        ],
      },
      orderBy: { name: 'asc' },
      select: { slug: true, name: true },
    }),
    db.userBlock.findFirst({ where: { blockerId: actor.user.id, blockedId: user.id }, select: { blockedId: true } }),
  ]);
  return { user, self: user.id === actor.user.id, blocked: block !== null, shared };
}
