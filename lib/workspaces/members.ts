// Membership: invitations by handle (pending until accepted or declined), role
// changes, removal and leaving. Who may do each is decided by lib/access; this
// file keeps the rule that a workspace never loses its last owner.
import type { SignedInCaller } from '../core/caller.ts';
import { mayAssignRole, mayRemoveMember } from '../access/capabilities.ts';
import { endWorkspaceRoomGrants, membersRoomGrants } from '../access/rooms.ts';
import { workspaceAccess, workspaceNotFound } from '../access/workspaces.ts';
import { findUserByHandle } from '../accounts/users.ts';
import type { Actor } from '../core/caller.ts';
import { recordAudit } from '../audit/log.ts';
import { db } from '../db/client.ts';
import type { RoomKind, RoomRole, WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { deliverNotifications, eventNotifications, markInvitationRead, queueNotifications } from '../notifications/notifications.ts';
import { publishRoomEvent } from '../db/bus.ts';
import { assertSeatFree } from './seats.ts';
import { changeWorkspace, type Tx } from './transaction.ts';

const ownersOnly = () => new ApiError('forbidden', 'Only an owner can make, change or remove an owner.');

async function memberByHandle(tx: Tx, workspaceId: string, slug: string, handle: string) {
  const membership = await tx.membership.findFirst({
    where: { workspaceId, user: { handle } },
    select: { role: true, status: true, user: { select: { id: true, handle: true } } },
  });
  if (!membership) throw new ApiError('not_found', `@${handle} is neither a member of "${slug}" nor invited to it.`);
  return membership;
}

/** Refuses a change that would leave no accepted owner. Runs inside changeWorkspace. */
async function assertAnotherOwner(tx: Tx, workspaceId: string, userId: string, message: string) {
  const others = await tx.membership.count({ where: { workspaceId, role: 'owner', status: 'accepted', userId: { not: userId } } });
  if (others === 0) throw new ApiError('conflict', message);
}

export async function inviteMember({ actor }: SignedInCaller, slug: string, input: { handle: string; role: WorkspaceRole }): Promise<void> {
  const notifications = await changeWorkspace({ slug }, async (tx) => {
    const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
    if (!mayAssignRole(role, null, input.role)) throw ownersOnly();
    const invitee = await findUserByHandle(input.handle, tx);
    if (!invitee) throw new ApiError('not_found', `No user @${input.handle}.`);
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: invitee.id } } });
    if (existing?.status === 'accepted') {
      throw new ApiError('conflict', `@${input.handle} is already a member of "${slug}"; change their role instead.`);
    }
    // Inviting again someone who has not answered yet updates the offer.
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: workspace.id, userId: invitee.id } },
      create: { workspaceId: workspace.id, userId: invitee.id, role: input.role, status: 'pending', invitedById: actor.user.id },
      update: { role: input.role, invitedById: actor.user.id },
    });
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: 'member.invited',
      target: { type: 'user', id: invitee.id, label: invitee.handle },
      details: { role: input.role },
    });
    const rows = eventNotifications(actor.user.id, [{ userId: invitee.id, kind: 'invited', workspaceId: workspace.id, role: input.role }]);
    await queueNotifications(tx, rows);
    return rows;
  });
  await deliverNotifications(notifications);
}

export async function changeMemberRole({ actor }: SignedInCaller, slug: string, handle: string, next: WorkspaceRole): Promise<void> {
  const notifications = await changeWorkspace({ slug }, async (tx) => {
    const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
    const target = await memberByHandle(tx, workspace.id, slug, handle);
    if (!mayAssignRole(role, target.role, next)) throw ownersOnly();
    if (target.role === next) return [];
    if (target.status === 'accepted' && target.role === 'owner') {
      await assertAnotherOwner(tx, workspace.id, target.user.id, `@${handle} is the only owner of "${slug}"; make someone else owner first.`);
    }
    await tx.membership.update({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: target.user.id } }, data: { role: next } });
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: 'member.role_changed',
      target: { type: 'user', id: target.user.id, label: target.user.handle },
      details: { from: target.role, to: next, ...(target.status === 'pending' && { pending: true }) },
    });
    // A pending invitation's new role is seen where it is answered; members are told.
    if (target.status === 'pending') return [];
    const rows = eventNotifications(actor.user.id, [{ userId: target.user.id, kind: 'role_changed', workspaceId: workspace.id, role: next }]);
    await queueNotifications(tx, rows);
    return rows;
  });
  await deliverNotifications(notifications);
  // Room roles follow workspace roles: re-check open sockets now.
  await publishRoomEvent({ kind: 'access', roomId: null });
}

/**
 * Removes a member or cancels an invitation (owners and admins), or leaves
 * (oneself). A member who goes loses their grants in the workspace's rooms and
 * live spaces too (lib/access/rooms.ts), but for those the admin keeps for
 * them as a guest; an invitee's room grants were a guest's all along and stay.
 */
export async function removeMember({ actor }: SignedInCaller, slug: string, handle: string, input: { keepAsGuest?: string[] } = {}): Promise<void> {
  const keepAsGuest = [...new Set(input.keepAsGuest ?? [])];
  await changeWorkspace({ slug }, async (tx) => {
    const leaving = handle === actor.user.handle;
    const { workspace, role } = await workspaceAccess(actor.user.id, slug, leaving ? 'view' : 'admin', tx);
    const target = await memberByHandle(tx, workspace.id, slug, handle);
    if (!leaving && !mayRemoveMember(role, target.role)) throw ownersOnly();
    if (keepAsGuest.length && leaving) throw new ApiError('bad_request', 'body.keepAsGuest: only an admin removing someone keeps rooms for them; to stay in a room, ask its owner to add you.');
    if (keepAsGuest.length && target.status === 'pending') throw new ApiError('bad_request', `body.keepAsGuest: @${handle} is only invited, so their rooms are left as they are.`);
    if (target.status === 'accepted' && target.role === 'owner') {
      await assertAnotherOwner(
        tx,
        workspace.id,
        target.user.id,
        leaving
          ? `You are the only owner of "${slug}": make someone else owner before you leave.`
          : `@${handle} is the only owner of "${slug}"; make someone else owner first.`,
      );
    }
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: target.user.id } } });
    const rooms = target.status === 'accepted' ? await endWorkspaceRoomGrants(tx, workspace.id, target.user.id, keepAsGuest) : null;
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: leaving ? 'member.left' : target.status === 'pending' ? 'member.invitation_cancelled' : 'member.removed',
      target: { type: 'user', id: target.user.id, label: target.user.handle },
      details: { role: target.role, ...(rooms && { roomGrantsEnded: rooms.ended, keptAsGuest: rooms.kept }) },
    });
  });
  // Room roles follow workspace roles: re-check open sockets now.
  await publishRoomEvent({ kind: 'access', roomId: null });
}

export type MemberRoom = { id: string; kind: RoomKind; name: string; role: RoomRole; apps: { id: string; name: string }[] };

/**
 * For the remove dialog (owners and admins): each accepted member's grants in
 * the workspace's rooms and live spaces, with the apps built from them: what
 * removing them takes away unless kept as a guest. Keyed by handle.
 */
export async function memberRoomGrants({ actor }: SignedInCaller, slug: string): Promise<Record<string, MemberRoom[]>> {
  const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin');
  const grants = await membersRoomGrants(workspace.id);
  const byHandle: Record<string, MemberRoom[]> = {};
  for (const g of grants) (byHandle[g.user.handle] ??= []).push({ ...g.room, role: g.role });
  return byHandle;
}

async function pendingInvitation(tx: Tx, actor: Actor, slug: string) {
  const membership = await tx.membership.findFirst({
    where: { userId: actor.user.id, workspace: { slug } },
    select: { role: true, status: true, workspace: { select: { id: true, slug: true, plan: true } } },
  });
  if (!membership) throw workspaceNotFound(slug);
  return membership;
}

/** Accepting twice is harmless: an accepted member's accept changes nothing. */
export async function acceptInvitation({ actor }: SignedInCaller, slug: string): Promise<void> {
  await changeWorkspace({ slug }, async (tx) => {
    const invitation = await pendingInvitation(tx, actor, slug);
    if (invitation.status === 'accepted') return;
    await assertSeatFree(tx, invitation.workspace);
    await tx.membership.update({
      where: { workspaceId_userId: { workspaceId: invitation.workspace.id, userId: actor.user.id } },
      data: { status: 'accepted', acceptedAt: new Date() },
    });
    await markInvitationRead(tx, actor.user.id, invitation.workspace.id);
    await recordAudit(tx, {
      workspaceId: invitation.workspace.id,
      actor: actor.user,
      action: 'member.joined',
      target: { type: 'user', id: actor.user.id, label: actor.user.handle },
      details: { role: invitation.role, via: 'invitation' },
    });
  });
}

export async function declineInvitation({ actor }: SignedInCaller, slug: string): Promise<void> {
  await changeWorkspace({ slug }, async (tx) => {
    const invitation = await pendingInvitation(tx, actor, slug);
    if (invitation.status === 'accepted') {
      throw new ApiError('not_found', `You have no invitation to "${slug}": you are already a member (to leave, remove yourself).`);
    }
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId: invitation.workspace.id, userId: actor.user.id } } });
    await recordAudit(tx, {
      workspaceId: invitation.workspace.id,
      actor: actor.user,
      action: 'member.declined',
      target: { type: 'user', id: actor.user.id, label: actor.user.handle },
      details: { role: invitation.role },
    });
  });
}
