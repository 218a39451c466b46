// Deleting a space (workspace owners and admins): its versions, uploads,
// viewers, download tickets, access tokens and visitor statistics go with it
// (ON DELETE CASCADE), and an audit event says who deleted it. Its blobs are
// the workspace's: a blob no other space's version or upload lists is released
// from the workspace's count, and its bytes deleted when nothing holds it, by
// the storage collector after its grace period (lib/storage/gc.ts), the same
// path as blobs a push stopped using.
import type { SignedInCaller } from '../core/caller.ts';
import { recordAudit } from '../audit/log.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { spaceChanged } from './space-cache.ts';
import { spaceWith } from './spaces.ts';

export async function deleteSpace(caller: SignedInCaller, id: string): Promise<void> {
  const { space } = await spaceWith(caller, id, 'admin');
  await db.$transaction(async (tx) => {
    await recordAudit(tx, {
      workspaceId: space.workspaceId,
      actor: caller.actor.user,
      action: 'space.deleted',
      target: { type: 'space', id: space.id, label: space.name },
      details: { versions: space.latestVersion },
    });
    // Two deletions at once: the second finds nothing left, and says so (its audit event rolls back).
    const { count } = await tx.space.deleteMany({ where: { id: space.id } });
    if (count === 0) throw new ApiError('not_found', `No space ${space.id}.`);
  });
  spaceChanged(space.id);
}
