// Invite links: a bearer token that lets whoever holds it join a workspace
// with the link's role. The token is shown once, in the creation answer, and
// only its hash is kept. A link is live until it is revoked, expires or is
// used up; uses are counted inside the workspace's lock, so two people racing
// for the last use cannot both get in.
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { mayAssignRole } from '../access/capabilities.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import type { Actor } from '../core/caller.ts';
import { recordAudit } from '../audit/log.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { log } from '../log.ts';
import { sendMail } from '../mail/mailer.ts';
import { markInvitationRead } from '../notifications/notifications.ts';
import type { InviteAcceptResult, InviteLink, InviteLinkResult, InvitePreview } from '../schemas/workspaces.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { assertSeatFree } from './seats.ts';
import { changeWorkspace } from './transaction.ts';

const DAY = 24 * 60 * 60 * 1000;

const linkSelect = {
  id: true,
  role: true,
  email: true,
  maxUses: true,
  uses: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  createdBy: { select: { id: true, handle: true, name: true } },
} as const;

type LinkRow = { role: WorkspaceRole; maxUses: number | null; uses: number; expiresAt: Date; revokedAt: Date | null };

/** Why a link no longer works, or null while it is live. */
function deadReason(link: LinkRow, now = Date.now()): string | null {
  if (link.revokedAt) return 'This invite link was revoked.';
  if (link.expiresAt.getTime() <= now) return 'This invite link has expired.';
  if (link.maxUses !== null && link.uses >= link.maxUses) return 'This invite link has been used up.';
  return null;
}

function toInviteLink(link: LinkRow & { id: string; email: string | null; createdAt: Date; createdBy: InviteLink['createdBy'] }): InviteLink {
  return {
    id: link.id,
    role: link.role,
    email: link.email,
    maxUses: link.maxUses,
    uses: link.uses,
    createdBy: link.createdBy,
    createdAt: link.createdAt.getTime(),
    expiresAt: link.expiresAt.getTime(),
  };
}

export function inviteUrl(token: string): string {
  return `${config.publicUrl}/invite/${token}`;
}

export async function createInviteLink(
  { actor }: SignedInCaller,
  slug: string,
  input: { role: WorkspaceRole; email?: string; maxUses: number | null; expiresInDays: number },
): Promise<InviteLinkResult> {
  const token = newSecret('workspaceInvite');
  const { workspace, link } = await changeWorkspace({ slug }, async (tx) => {
    const { workspace, role } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
    if (!mayAssignRole(role, null, input.role)) throw new ApiError('forbidden', 'Only an owner can make an invite link for owners.');
    const now = Date.now();
    const link = await tx.workspaceInvite.create({
      data: {
        id: newId('workspaceInvite'),
        workspaceId: workspace.id,
        role: input.role,
        email: input.email?.toLowerCase() ?? null,
        maxUses: input.maxUses,
        hash: hashSecret(token),
        createdById: actor.user.id,
        createdAt: new Date(now),
        expiresAt: new Date(now + input.expiresInDays * DAY),
      },
      select: linkSelect,
    });
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: 'invite_link.created',
      target: { type: 'invite_link', id: link.id, label: link.email },
      details: { role: link.role, email: link.email, maxUses: link.maxUses, expiresAt: link.expiresAt.getTime() },
    });
    return { workspace, link };
  });
  const url = inviteUrl(token);
  const emailed = link.email ? await emailInvite(link.email, url, actor, workspace, link) : false;
  return { invite: toInviteLink(link), url, emailed };
}

/** E-mails the link; a refusal by the mail server leaves the link working and reports emailed: false. */
async function emailInvite(
  to: string,
  url: string,
  actor: Actor,
  workspace: { slug: string; name: string },
  link: { id: string; role: WorkspaceRole; expiresAt: Date },
): Promise<boolean> {
  const inviter = actor.user.name ? `${actor.user.name} (@${actor.user.handle})` : `@${actor.user.handle}`;
  try {
    return await sendMail({
      to,
      subject: `${inviter} invited you to ${workspace.name} on Atrium`,
      text:
        `${inviter} invited you to join the workspace "${workspace.name}" (${workspace.slug}) on Atrium as ${link.role}.\n\n` +
        `Open this link to accept:\n\n${url}\n\n` +
        `It works until ${link.expiresAt.toUTCString()}, for an account with this e-mail address (${to}). ` +
        `If you did not expect it, ignore this e-mail.\n`,
    });
  } catch (error) {
    log.warn('invite link e-mail failed', { inviteId: link.id, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

export async function listInviteLinks({ actor }: SignedInCaller, slug: string): Promise<{ invites: InviteLink[] }> {
  const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin');
  const now = new Date();
  const links = await db.workspaceInvite.findMany({
    where: { workspaceId: workspace.id, revokedAt: null, expiresAt: { gt: now } },
    select: linkSelect,
    orderBy: { createdAt: 'desc' },
  });
  return { invites: links.filter((link) => deadReason(link, now.getTime()) === null).map(toInviteLink) };
}

/** Revoking a link that is already dead changes nothing. */
export async function revokeInviteLink({ actor }: SignedInCaller, slug: string, id: string): Promise<void> {
  await changeWorkspace({ slug }, async (tx) => {
    const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
    const link = await tx.workspaceInvite.findFirst({ where: { id, workspaceId: workspace.id }, select: { id: true, email: true, revokedAt: true } });
    if (!link) throw new ApiError('not_found', `No invite link ${id} in "${slug}".`);
    if (link.revokedAt) return;
    await tx.workspaceInvite.update({ where: { id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: 'invite_link.revoked',
      target: { type: 'invite_link', id, label: link.email },
    });
  });
}

async function findLink(token: string) {
  const link = await db.workspaceInvite.findUnique({
    where: { hash: hashSecret(token) },
    select: { ...linkSelect, workspace: { select: { id: true, slug: true, name: true, plan: true } } },
  });
  if (!link) throw new ApiError('not_found', 'No such invite link: check that it was copied whole.');
  const dead = deadReason(link);
  if (dead) throw new ApiError('gone', `${dead} Ask for a new one.`);
  return link;
}

export async function previewInviteLink({ actor }: Caller, token: string): Promise<InvitePreview> {
  const link = await findLink(token);
  const [memberCount, membership] = await Promise.all([
    db.membership.count({ where: { workspaceId: link.workspace.id, status: 'accepted' } }),
    actor
      ? db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: link.workspace.id, userId: actor.user.id } }, select: { status: true } })
      : null,
  ]);
  return {
    workspace: { id: link.workspace.id, slug: link.workspace.slug, name: link.workspace.name },
    role: link.role,
    invitedBy: link.createdBy,
    memberCount,
    expiresAt: link.expiresAt.getTime(),
    alreadyMember: membership?.status === 'accepted',
  };
}

export async function acceptInviteLink({ actor }: SignedInCaller, token: string): Promise<InviteAcceptResult> {
  const found = await findLink(token);
  if (found.email) {
    const account = await db.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { email: true } });
    if (account.email?.toLowerCase() !== found.email) {
      throw new ApiError('forbidden', 'This invite link is for another e-mail address: sign in with the account it was sent to.');
    }
  }
  return changeWorkspace({ id: found.workspace.id }, async (tx) => {
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: found.workspace.id }, select: { id: true, slug: true, name: true, plan: true } });
    const membership = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: actor.user.id } } });
    if (membership?.status === 'accepted') {
      return { workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, role: membership.role }, alreadyMember: true };
    }
    // Read again under the lock: another accept or a revocation may have come first.
    const link = await tx.workspaceInvite.findUniqueOrThrow({ where: { id: found.id }, select: linkSelect });
    const dead = deadReason(link);
    if (dead) throw new ApiError('gone', `${dead} Ask for a new one.`);
    await assertSeatFree(tx, workspace);
    await tx.workspaceInvite.update({ where: { id: link.id }, data: { uses: { increment: 1 } } });
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: workspace.id, userId: actor.user.id } },
      create: {
        workspaceId: workspace.id,
        userId: actor.user.id,
        role: link.role,
        status: 'accepted',
        invitedById: link.createdBy?.id ?? null,
        acceptedAt: new Date(),
      },
      update: { role: link.role, status: 'accepted', acceptedAt: new Date() },
    });
    // A link can answer an invitation by handle too.
    await markInvitationRead(tx, actor.user.id, workspace.id);
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: actor.user,
      action: 'member.joined',
      target: { type: 'user', id: actor.user.id, label: actor.user.handle },
      details: { role: link.role, via: 'invite_link', inviteId: link.id },
    });
    return { workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, role: link.role }, alreadyMember: false };
  });
}
