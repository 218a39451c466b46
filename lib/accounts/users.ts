import type { Actor } from '../auth/tokens.ts';
import { db } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { CurrentUser, Preferences, User } from '../schemas/accounts.ts';
import { assertHandleAllowed } from './handles.ts';

/** Creates a user with their personal workspace, whose slug is the handle. */
export async function createUser(input: { handle: string; name?: string | null; email?: string | null }): Promise<User> {
  assertHandleAllowed(input.handle);
  const userId = newId('user');
  const workspaceId = newId('workspace');
  const [user] = await db.$transaction([
    db.user.create({
      data: { id: userId, handle: input.handle, name: input.name ?? null, email: input.email ?? null },
      select: { id: true, handle: true, name: true },
    }),
    db.workspace.create({ data: { id: workspaceId, slug: input.handle, name: input.handle, personal: true } }),
    db.membership.create({
      data: { workspaceId, userId, role: 'owner', status: 'accepted', acceptedAt: new Date() },
    }),
  ]);
  return user;
}

export async function findUserByHandle(handle: string): Promise<User | null> {
  return db.user.findUnique({ where: { handle }, select: { id: true, handle: true, name: true } });
}

export async function currentUser(userId: string): Promise<CurrentUser> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      handle: true,
      name: true,
      developerMode: true,
      memberships: {
        select: { role: true, status: true, workspace: { select: { id: true, slug: true, name: true } } },
        orderBy: { createdAt: 'asc' },
      },
      blocks: { select: { blockedId: true }, orderBy: { createdAt: 'asc' } },
    },
  });
  const summary = (m: (typeof user.memberships)[number]) => ({ ...m.workspace, role: m.role });
  return {
    user: { id: user.id, handle: user.handle, name: user.name },
    workspaces: user.memberships.filter((m) => m.status === 'accepted').map(summary),
    invites: user.memberships.filter((m) => m.status === 'pending').map(summary),
    preferences: { developerMode: user.developerMode },
    blocked: user.blocks.map((b) => b.blockedId),
  };
}

export async function updatePreferences(actor: Actor, changes: Partial<Preferences>): Promise<Preferences> {
  return db.user.update({ where: { id: actor.user.id }, data: changes, select: { developerMode: true } });
}
