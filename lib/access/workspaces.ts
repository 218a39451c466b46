// A caller's standing in a workspace. A workspace the caller does not belong
// to (or is only invited to) is not found; a member without the capability a
// step needs is forbidden.
import { db, type Prisma, type PrismaClient } from '../db/client.ts';
import type { Plan, WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { rolesThatCan, workspaceRoleCan, type Capability } from './capabilities.ts';

type Client = Pick<PrismaClient, 'membership'>;

export type WorkspaceAccess = {
  workspace: { id: string; slug: string; name: string; plan: Plan; personal: boolean; createdAt: Date };
  role: WorkspaceRole;
};

/** The workspaces a person belongs to (an invitation alone counts for nothing). */
export function joinedWorkspaces(userId: string): Prisma.WorkspaceWhereInput {
  return { memberships: { some: { userId, status: 'accepted' } } };
}

export function workspaceNotFound(slug: string): ApiError {
  return new ApiError('not_found', `No workspace "${slug}" (or you are not a member of it).`);
}

export async function workspaceAccess(userId: string, slug: string, capability: Capability, client: Client = db): Promise<WorkspaceAccess> {
  const membership = await client.membership.findFirst({
    where: { userId, status: 'accepted', workspace: { slug } },
    select: { role: true, workspace: { select: { id: true, slug: true, name: true, plan: true, personal: true, createdAt: true } } },
  });
  if (!membership) throw workspaceNotFound(slug);
  if (!workspaceRoleCan(membership.role, capability)) {
    throw new ApiError('forbidden', `This needs the role ${rolesThatCan(capability)} in "${slug}"; yours is ${membership.role}.`);
  }
  return { workspace: membership.workspace, role: membership.role };
}
