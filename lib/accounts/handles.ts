// Handles and workspace slugs share one namespace (a personal workspace's slug
// is its owner's handle). Reserved names are those of top-level routes and
// pages, and names that would mislead if someone else held them.
import type { SignedInCaller } from '../core/caller.ts';
import { db, Prisma } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import type { User } from '../schemas/accounts.ts';
import { HANDLE_PATTERN, HANDLE_RULE } from '../schemas/common.ts';

export const RESERVED_HANDLES = new Set([
  // Top-level routes and pages (test/accounts/handles.test.ts checks app/ against this list).
  'api', 'asyncapi', 'device', 'dl', 'invite', 'live-space-invites', 'notifications', 'openapi', 'protected', 'reference', 's', 'settings', 'signin', 'signout', 'u', 'v1', 'w',
  // Names planned or commonly used for routes, and names that would mislead.
  'about', 'account', 'accounts', 'admin', 'administrator', 'anonymous', 'app', 'apps', 'assets', 'atrium',
  'auth', 'billing', 'blog', 'callback', 'cli', 'dashboard', 'deleted', 'deleted-user', 'docs', 'download',
  'downloads', 'email', 'explore', 'favicon', 'ghost', 'guest', 'help', 'home', 'invites', 'live',
  'live-spaces', 'login', 'logout', 'mail', 'me', 'new', 'null', 'oauth', 'owner', 'pricing', 'privacy',
  'robots', 'root', 'room-invites', 'rooms', 'search', 'security', 'sign-in', 'sign-out', 'signup', 'sitemap',
  'spaces', 'static', 'status', 'support', 'system', 'terms', 'tokens', 'undefined', 'user', 'users', 'v2',
  'verify', 'workspace-invites', 'workspaces', 'www',
]);

export function assertHandleAllowed(handle: string): void {
  if (RESERVED_HANDLES.has(handle)) throw new ApiError('bad_request', `The handle "${handle}" is reserved.`);
}

export type HandleProblem = { code: 'bad_request' | 'conflict'; message: string };

/**
 * Why `userId` cannot take `handle`, or null when it can. A workspace holding
 * the name as its slug takes it too, unless that is the user's own personal
 * workspace.
 */
export async function handleProblem(userId: string, handle: string, client: Prisma.TransactionClient = db): Promise<HandleProblem | null> {
  if (!HANDLE_PATTERN.test(handle)) return { code: 'bad_request', message: `A handle ${HANDLE_RULE}.` };
  if (RESERVED_HANDLES.has(handle)) return { code: 'bad_request', message: `The handle "${handle}" is reserved.` };
  const [user, workspace] = await Promise.all([
    client.user.findUnique({ where: { handle }, select: { id: true } }),
    client.workspace.findUnique({
      where: { slug: handle },
      select: { personal: true, memberships: { where: { userId, role: 'owner' }, select: { userId: true } } },
    }),
  ]);
  const ownPersonal = workspace?.personal && workspace.memberships.length > 0;
  if ((user && user.id !== userId) || (workspace && !ownPersonal)) {
    return { code: 'conflict', message: `The handle "${handle}" is taken.` };
  }
  return null;
}

/** Changes the caller's handle; their personal workspace's slug, and its name if unchanged, follow. */
export async function changeHandle({ actor }: SignedInCaller, handle: string): Promise<User> {
  try {
    return await db.$transaction(async (tx) => {
      const me = await tx.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { id: true, handle: true, name: true } });
      if (me.handle === handle) return me;
      const problem = await handleProblem(me.id, handle, tx);
      if (problem) throw new ApiError(problem.code, problem.message);
      const user = await tx.user.update({ where: { id: me.id }, data: { handle }, select: { id: true, handle: true, name: true } });
      const personal = await tx.workspace.findFirst({
        where: { personal: true, slug: me.handle, memberships: { some: { userId: me.id, role: 'owner' } } },
        select: { id: true, name: true },
      });
      if (personal) {
        await tx.workspace.update({ where: { id: personal.id }, data: { slug: handle, ...(personal.name === me.handle && { name: handle }) } });
      }
      return user;
    });
  } catch (error) {
    // Someone took the name between the check and the update.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new ApiError('conflict', `The handle "${handle}" is taken.`);
    }
    throw error;
  }
}
