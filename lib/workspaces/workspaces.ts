// Workspaces: listing, creation, the detail view and renaming. Slugs share one
// namespace with handles (lib/accounts/handles.ts): a slug is taken when a
// workspace or a user holds it, and the reserved names are refused.
import type { SignedInCaller } from '../core/caller.ts';
import { workspaceRoleCan } from '../access/capabilities.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import { RESERVED_HANDLES } from '../accounts/handles.ts';
import type { Actor } from '../core/caller.ts';
import { recordAudit } from '../audit/log.ts';
import { db, Prisma } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import type { WorkspaceDetail, WorkspaceSummary } from '../schemas/workspaces.ts';
import { seatUsage } from './seats.ts';
import { changeWorkspace, type Tx } from './transaction.ts';

const personSelect = { select: { id: true, handle: true, name: true } } as const;

function slugTaken(slug: string): ApiError {
  return new ApiError('conflict', `The name "${slug}" is taken by another workspace or user.`);
}

/** Refuses reserved and taken slugs. Your own handle may name your personal workspace. */
async function assertSlugFree(tx: Tx, slug: string, actor: Actor, workspace?: { id: string; personal: boolean }) {
  if (RESERVED_HANDLES.has(slug)) throw new ApiError('bad_request', `The slug "${slug}" is reserved.`);
  const [holder, user] = await Promise.all([
    tx.workspace.findUnique({ where: { slug }, select: { id: true } }),
    tx.user.findUnique({ where: { handle: slug }, select: { id: true } }),
  ]);
  if (holder && holder.id !== workspace?.id) throw slugTaken(slug);
  if (user && !(workspace?.personal && user.id === actor.user.id)) throw slugTaken(slug);
}

/** A unique-slug race lost to someone else is the same conflict. */
async function claimingSlug<T>(slug: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw slugTaken(slug);
    throw error;
  }
}

export async function listWorkspaces({ actor }: SignedInCaller): Promise<WorkspaceSummary[]> {
  const memberships = await db.membership.findMany({
    where: { userId: actor.user.id, status: 'accepted' },
    select: { role: true, workspace: { select: { id: true, slug: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return memberships.map((m) => ({ ...m.workspace, role: m.role }));
}

export async function createWorkspace({ actor }: SignedInCaller, input: { slug: string; name: string }): Promise<WorkspaceSummary> {
  return claimingSlug(input.slug, () =>
    db.$transaction(async (tx) => {
      await assertSlugFree(tx, input.slug, actor);
      const workspace = await tx.workspace.create({ data: { id: newId('workspace'), slug: input.slug, name: input.name } });
      await tx.membership.create({
        data: { workspaceId: workspace.id, userId: actor.user.id, role: 'owner', status: 'accepted', acceptedAt: new Date() },
      });
      await recordAudit(tx, {
        workspaceId: workspace.id,
        actor: actor.user,
        action: 'workspace.created',
        target: { type: 'workspace', id: workspace.id, label: workspace.slug },
        details: { slug: workspace.slug, name: workspace.name },
      });
      return { id: workspace.id, slug: workspace.slug, name: workspace.name, role: 'owner' as const };
    }),
  );
}

export async function getWorkspace({ actor }: SignedInCaller, slug: string): Promise<WorkspaceDetail> {
  const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'view');
  const [memberships, spaceCount] = await Promise.all([
    db.membership.findMany({
    // Pending invitations are the business of those who manage members.
    where: { workspaceId: workspace.id, ...(!workspaceRoleCan(role, 'admin') && { status: 'accepted' as const }) },
    select: { role: true, status: true, createdAt: true, acceptedAt: true, user: personSelect, invitedBy: personSelect },
    orderBy: { createdAt: 'asc' },
    }),
    db.space.count({ where: { workspaceId: workspace.id } }),
  ]);
  return {
    id: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    role,
    members: memberships.map((m) => ({
      user: m.user,
      role: m.role,
      status: m.status,
      invitedBy: m.invitedBy,
      invitedAt: m.createdAt.getTime(),
      joinedAt: m.acceptedAt?.getTime() ?? null,
    })),
    spaceCount,
    createdAt: workspace.createdAt.getTime(),
    seats: await seatUsage(db, workspace),
  };
}

export async function updateWorkspace({ actor }: SignedInCaller, slug: string, input: { slug?: string; name?: string }): Promise<WorkspaceSummary> {
  return claimingSlug(input.slug ?? slug, () =>
    changeWorkspace({ slug }, async (tx) => {
      const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
      const changes: Record<string, { from: string; to: string }> = {};
      if (input.slug !== undefined && input.slug !== workspace.slug) {
        await assertSlugFree(tx, input.slug, actor, workspace);
        changes.slug = { from: workspace.slug, to: input.slug };
      }
      if (input.name !== undefined && input.name !== workspace.name) changes.name = { from: workspace.name, to: input.name };
      if (Object.keys(changes).length === 0) return { id: workspace.id, slug: workspace.slug, name: workspace.name, role };
      const updated = await tx.workspace.update({
        where: { id: workspace.id },
        data: { slug: changes.slug?.to, name: changes.name?.to },
        select: { id: true, slug: true, name: true },
      });
      await recordAudit(tx, {
        workspaceId: workspace.id,
        actor: actor.user,
        action: 'workspace.updated',
        target: { type: 'workspace', id: workspace.id, label: updated.slug },
        details: changes,
      });
      return { ...updated, role };
    }),
  );
}
