import type { SignedInCaller } from '../access/caller.ts';
import { db, Prisma } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { CurrentUser, Preferences, User } from '../schemas/accounts.ts';
import { HANDLE_PATTERN } from '../schemas/common.ts';
import { assertHandleAllowed, handleProblem } from './handles.ts';

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

/** "José García" -> "jose-garcia"; null when nothing usable is left. */
export function handleFrom(text: string | null | undefined): string | null {
  const handle = (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 39)
    .replace(/^-+|-+$/g, '');
  return HANDLE_PATTERN.test(handle) ? handle : null;
}

/**
 * Creates a user who signed in for the first time (by e-mail or OAuth), with
 * the first free handle made from the hints (an OAuth login, the e-mail's
 * local part): "ada", else "ada-2", "ada-3", … They can change it later.
 */
export async function createUserWithFreeHandle(input: { hints: (string | null | undefined)[]; name?: string | null; email?: string | null }): Promise<User> {
  const base = input.hints.map(handleFrom).find((h) => h !== null) ?? 'user';
  for (let n = 1; ; n++) {
    const handle = n === 1 ? base : `${base.slice(0, 38 - String(n).length).replace(/-+$/, '')}-${n}`;
    if (await handleProblem('', handle)) continue;
    try {
      return await createUser({ handle, name: input.name, email: input.email });
    } catch (error) {
      // Taken meanwhile: try the next one.
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
      if (input.email && (await db.user.findUnique({ where: { email: input.email }, select: { id: true } }))) throw error;
    }
  }
}

/** Pass the transaction client when called inside a transaction. */
export async function findUserByHandle(handle: string, client: Pick<Prisma.TransactionClient, 'user'> = db): Promise<User | null> {
  return client.user.findUnique({ where: { handle }, select: { id: true, handle: true, name: true } });
}

export async function currentUser({ actor }: SignedInCaller): Promise<CurrentUser> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: actor.user.id },
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

export async function updatePreferences({ actor }: SignedInCaller, changes: Partial<Preferences>): Promise<Preferences> {
  return db.user.update({ where: { id: actor.user.id }, data: changes, select: { developerMode: true } });
}
