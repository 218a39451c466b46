// What a caller may do with a space. Members of the space's workspace get what
// their role's capabilities give (capabilities.ts: view, comment, push, manage,
// admin, each with its one meaning). Everyone else depends on the space's
// visibility, its list of viewers and its password:
//
// | caller                                  | view | comment          | push, manage, admin |
// |-----------------------------------------|------|------------------|---------------------|
// | workspace member of any role            | by the role's capabilities                   |
// | listed in viewers                       | yes  | if guestComments | no                  |
// | anyone else, space public, no password  | yes  | if guestComments | no                  |
// | anyone else, public with a password     | with an unlock token, as above              |
// | anyone else, visibility members         | nothing: the space is not found              |
//
// Pending invitations count for nothing. People with view skip the password
// only through their role or the viewers list; everyone else unlocks.
import type { Actor } from '../core/caller.ts';
import { db } from '../db/client.ts';
import type { Prisma, SpaceVisibility, WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { workspaceRoleCan, type Capability } from './capabilities.ts';
import { joinedWorkspaces } from './workspaces.ts';

/** The capabilities that apply to a space, with the caller's answer for each. */
export const SPACE_CAPABILITIES = ['view', 'comment', 'push', 'manage', 'admin'] as const satisfies readonly Capability[];
export type SpaceCapability = (typeof SPACE_CAPABILITIES)[number];
export type SpacePermissions = Record<SpaceCapability, boolean>;

/** The fields of a space its access depends on. */
export type SpaceForAccess = {
  id: string;
  workspaceId: string;
  visibility: SpaceVisibility;
  guestComments: boolean;
  passwordHash: string | null;
};

export type Standing = {
  /** The caller's accepted role in the space's workspace. */
  role: WorkspaceRole | null;
  /** Listed in the space's viewers. */
  listedViewer: boolean;
  /** Holds a valid unlock token for the space's password. */
  unlocked: boolean;
};

const NONE: SpacePermissions = { view: false, comment: false, push: false, manage: false, admin: false };

export function permissionsFor(space: SpaceForAccess, standing: Standing): SpacePermissions {
  const { role } = standing;
  if (role) return Object.fromEntries(SPACE_CAPABILITIES.map((c) => [c, workspaceRoleCan(role, c)])) as SpacePermissions;
  const view = standing.listedViewer || (space.visibility === 'public' && (space.passwordHash === null || standing.unlocked));
  return view ? { ...NONE, view: true, comment: space.guestComments } : NONE;
}

/** Whether the caller may know the space exists: 404 otherwise. */
export function canSee(space: SpaceForAccess, permissions: SpacePermissions): boolean {
  return permissions.view || space.visibility === 'public';
}

/** The caller's standing towards a space: their role and whether they are a listed viewer. */
export async function standingOf(actor: Actor | null, space: SpaceForAccess, unlocked = false): Promise<Standing> {
  if (!actor) return { role: null, listedViewer: false, unlocked };
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: space.workspaceId, userId: actor.user.id } },
    select: { role: true, status: true },
  });
  if (membership?.status === 'accepted') return standingFrom(membership.role, false, unlocked);
  const viewer = await db.spaceViewer.findUnique({ where: { spaceId_userId: { spaceId: space.id, userId: actor.user.id } }, select: { userId: true } });
  return standingFrom(null, viewer !== null, unlocked);
}

/**
 * The standing from its two facts, for code that reads them together with the
 * space (loadSpace): the accepted role in the workspace, and whether the caller
 * is on the space's list of viewers. Only someone outside the workspace can owe
 * their view to that list.
 */
export function standingFrom(role: WorkspaceRole | null, listedViewer: boolean, unlocked = false): Standing {
  return role ? { role, listedViewer: false, unlocked } : { role: null, listedViewer, unlocked };
}

/**
 * The spaces a person finds in search: their workspaces' and those listing
 * them as a viewer, which they view without a password. Public spaces of other
 * workspaces are opened by their link, never found.
 */
export function foundSpaces(userId: string): Prisma.SpaceWhereInput {
  return { OR: [{ workspace: joinedWorkspaces(userId) }, { viewers: { some: { userId } } }] };
}

/**
 * The spaces a person views without a password: their workspaces', those
 * listing them as a viewer, and public ones without a password (the rows of
 * the table above that need no unlock token).
 */
export function viewableSpaces(userId: string): Prisma.SpaceWhereInput {
  return { OR: [...foundSpaces(userId).OR!, { visibility: 'public', passwordHash: null }] };
}

export function notFound(id: string): ApiError {
  return new ApiError('not_found', `No space ${id}, or you cannot see it.`);
}

/**
 * Throws unless the caller has `need`: not_found when they may not know the
 * space exists, unauthorized when the password would give them `need`,
 * forbidden otherwise. Unlocking gives view (and comment with guest comments),
 * never push or admin: asking those of a protected space is forbidden whether
 * or not the caller has unlocked it, as "unlock first" would not help.
 */
export function requirePermission(space: SpaceForAccess, permissions: SpacePermissions, need: keyof SpacePermissions): void {
  if (permissions[need]) return;
  if (!canSee(space, permissions)) throw notFound(space.id);
  const unlocked = permissionsFor(space, { role: null, listedViewer: false, unlocked: true });
  if (!permissions.view && space.passwordHash !== null && unlocked[need]) {
    throw new ApiError('unauthorized', 'This space is protected by a password: unlock it first (POST /v1/spaces/{id}/unlock).');
  }
  const needs = { view: 'view', comment: 'comment on', push: 'push to', manage: 'change the settings of', admin: 'administer' }[need];
  throw new ApiError('forbidden', `You cannot ${needs} this space.`);
}
