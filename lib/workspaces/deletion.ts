// Deleting a workspace (its owners and admins): its spaces with everything in
// them, its memberships and invitations, its invite links, its audit log and
// its blob references (WorkspaceBlob) go with it (ON DELETE CASCADE); bytes no
// other workspace holds are deleted by the storage collector. The audit log
// goes with the workspace, so the deletion is recorded in the server's log.
// A personal workspace goes only with its person's account.
import type { SignedInCaller } from '../core/caller.ts';
import { workspaceAccess, workspaceNotFound } from '../access/workspaces.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { log } from '../log.ts';
import { publishRoomEvent } from '../db/bus.ts';

export async function deleteWorkspace({ actor }: SignedInCaller, slug: string): Promise<void> {
  const deleted = await db.$transaction(async (tx) => {
    const { workspace } = await workspaceAccess(actor.user.id, slug, 'admin', tx);
    if (workspace.personal) {
      throw new ApiError('conflict', `"${slug}" is your personal workspace: it is deleted with your account (Settings → Delete account).`);
    }
    // Lock it, so a member joining or a space being created at the same moment waits for the deletion.
    await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspace.id} FOR UPDATE`;
    const spaces = await tx.space.count({ where: { workspaceId: workspace.id } });
    // Two deletions at once: the second finds nothing left, and says so.
    const { count } = await tx.workspace.deleteMany({ where: { id: workspace.id } });
    if (count === 0) throw workspaceNotFound(slug);
    return { ...workspace, spaces };
  });
  await publishRoomEvent({ kind: 'access', roomId: null });
  log.info('workspace.deleted', { workspaceId: deleted.id, slug: deleted.slug, actorId: actor.user.id, actorHandle: actor.user.handle, spaces: deleted.spaces });
}
