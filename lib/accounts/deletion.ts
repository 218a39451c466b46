// Account deletion, all in one transaction:
// - workspaces in which the caller is the only accepted member are deleted with
//   everything in them (pending invitations to them lapse);
// - a shared workspace whose only owner is the caller passes to its earliest
//   other accepted member (by the time they joined), who becomes owner;
// - the caller's tokens, web sessions, OAuth links, e-mail sign-in links,
//   command-line sign-ins, memberships and blocks go with the user row;
// - what the caller wrote elsewhere stays: author columns are nullable with
//   ON DELETE SET NULL, and a null author is shown as "Deleted user".
import type { SignedInCaller } from '../core/caller.ts';
import { db, type Prisma } from '../db/client.ts';
import { publishRoomEvent } from '../db/bus.ts';

type WorkspaceRef = { id: string; slug: string; name: string };

export type DeletionPlan = {
  /** Workspaces deleted with the account: nobody else is a member. */
  deleted: WorkspaceRef[];
  /** Shared workspaces the caller alone owns, and who owns them next. */
  transferred: { workspace: WorkspaceRef; personal: boolean; to: { id: string; handle: string } }[];
  /** Shared workspaces the caller simply leaves. */
  left: WorkspaceRef[];
};

/** What deleting the account would do; the settings page shows it, deleteAccount does it. */
export async function accountDeletionPlan(userId: string, client: Prisma.TransactionClient = db): Promise<DeletionPlan> {
  const memberships = await client.membership.findMany({
    where: { userId, status: 'accepted' },
    orderBy: { createdAt: 'asc' },
    select: {
      role: true,
      workspace: {
        select: {
          id: true,
          slug: true,
          name: true,
          personal: true,
          memberships: {
            where: { status: 'accepted', userId: { not: userId } },
            orderBy: [{ acceptedAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }, { userId: 'asc' }],
            select: { role: true, user: { select: { id: true, handle: true } } },
          },
        },
      },
    },
  });
  const plan: DeletionPlan = { deleted: [], transferred: [], left: [] };
  for (const { role, workspace } of memberships) {
    const { memberships: others, personal, ...ref } = workspace;
    if (others.length === 0) plan.deleted.push(ref);
    else if (role === 'owner' && !others.some((m) => m.role === 'owner')) plan.transferred.push({ workspace: ref, personal, to: others[0].user });
    else plan.left.push(ref);
  }
  return plan;
}

export async function deleteAccount({ actor }: SignedInCaller): Promise<void> {
  const userId = actor.user.id;
  await db.$transaction(async (tx) => {
    // Lock the caller's workspaces so that two members leaving or deleting
    // their accounts at once cannot leave a workspace without an owner.
    await tx.$queryRaw`
      SELECT w.id FROM "Workspace" w JOIN "Membership" m ON m."workspaceId" = w.id
      WHERE m."userId" = ${userId} ORDER BY w.id FOR UPDATE OF w`;
    const plan = await accountDeletionPlan(userId, tx);
    await tx.workspace.deleteMany({ where: { id: { in: plan.deleted.map((w) => w.id) } } });
    for (const { workspace, personal, to } of plan.transferred) {
      await tx.membership.update({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: to.id } }, data: { role: 'owner' } });
      // It is no longer anyone's personal workspace, so its slug stops following a handle.
      if (personal) await tx.workspace.update({ where: { id: workspace.id }, data: { personal: false } });
    }
    const user = await tx.user.delete({ where: { id: userId }, select: { email: true } });
    if (user.email) await tx.emailSignIn.deleteMany({ where: { email: user.email } });
  });
  await publishRoomEvent({ kind: 'access', roomId: null });
}
