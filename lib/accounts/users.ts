import type { SignedInCaller } from '../core/caller.ts';
import { db, Prisma, query } from '../db/client.ts';
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

type MembershipSummary = { id: string; slug: string; name: string; role: CurrentUser['workspaces'][number]['role']; status: 'pending' | 'accepted' };

/**
 * The signed-in person with their workspaces, invitations and blocks: the
 * request behind every page and CLI command, so one plain-SQL statement.
 */
export async function currentUser({ actor }: SignedInCaller): Promise<CurrentUser> {
  const [user] = await query<{ id: string; handle: string; name: string | null; developerMode: boolean; memberships: MembershipSummary[]; blocked: string[] }>(
    `SELECT u."id", u."handle", u."name", u."developerMode",
       COALESCE((SELECT json_agg(json_build_object('id', w."id", 'slug', w."slug", 'name', w."name", 'role', m."role", 'status', m."status") ORDER BY m."createdAt")
                   FROM "Membership" m JOIN "Workspace" w ON w."id" = m."workspaceId" WHERE m."userId" = u."id"), '[]'::json) AS "memberships",
       COALESCE((SELECT json_agg(b."blockedId" ORDER BY b."createdAt") FROM "UserBlock" b WHERE b."blockerId" = u."id"), '[]'::json) AS "blocked"
     FROM "User" u WHERE u."id" = $1`,
    [actor.user.id],
  );
  if (!user) throw new Error(`No user ${actor.user.id}.`);
  const summaries = (status: MembershipSummary['status']) =>
    user.memberships.filter((m) => m.status === status).map((m) => ({ id: m.id, slug: m.slug, name: m.name, role: m.role }));
  return {
    user: { id: user.id, handle: user.handle, name: user.name },
    workspaces: summaries('accepted'),
    invites: summaries('pending'),
    preferences: { developerMode: user.developerMode },
    blocked: user.blocked,
  };
}

export async function updatePreferences({ actor }: SignedInCaller, changes: Partial<Preferences>): Promise<Preferences> {
  return db.user.update({ where: { id: actor.user.id }, data: changes, select: { developerMode: true } });
}
