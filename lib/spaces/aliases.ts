// Named aliases of a space's versions (previews: `pr-42`), each served on a
// host of its own (lib/spaces/hosts.ts). An alias is one row: setting it is
// one upsert, removing it one delete, and serving reads it per request, so
// every node sees a move or a removal at once.
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { db, type Prisma } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import type { Alias } from '../schemas/spaces.ts';
import { queueWebhookEvent } from '../audit/webhook-events.ts';
import { aliasUrl } from './hosts.ts';
import { spaceWith } from './spaces.ts';

const aliasSelect = { name: true, version: true, updatedAt: true, updatedBy: { select: { id: true, handle: true, name: true } } } as const;
type AliasRow = Prisma.SpaceAliasGetPayload<{ select: typeof aliasSelect }>;

const aliasOut = (spaceId: string, row: AliasRow): Alias => ({ name: row.name, version: row.version, url: aliasUrl(spaceId, row.name), updatedAt: row.updatedAt.getTime(), updatedBy: row.updatedBy });

export async function listAliases(caller: Caller, id: string): Promise<Alias[]> {
  const { space } = await spaceWith(caller, id, 'view');
  const rows = await db.spaceAlias.findMany({ where: { spaceId: space.id }, orderBy: { name: 'asc' }, select: aliasSelect });
  return rows.map((row) => aliasOut(space.id, row));
}

/**
 * Points `name` at `version` inside the caller's transaction (a commit's, or
 * its own), and tells the workspace's webhooks.
 */
export async function moveAlias(tx: Prisma.TransactionClient, space: { id: string; name: string; workspaceId: string }, name: string, version: number, userId: string): Promise<Alias> {
  // One statement, so that two moves of the same alias at once both succeed (the last one wins).
  await tx.$executeRaw`
    INSERT INTO "SpaceAlias" ("spaceId", "name", "version", "updatedById", "updatedAt") VALUES (${space.id}, ${name}, ${version}, ${userId}, now())
    ON CONFLICT ("spaceId", "name") DO UPDATE SET "version" = EXCLUDED."version", "updatedById" = EXCLUDED."updatedById", "updatedAt" = EXCLUDED."updatedAt"`;
  const row = await tx.spaceAlias.findUniqueOrThrow({ where: { spaceId_name: { spaceId: space.id, name } }, select: aliasSelect });
  const alias = aliasOut(space.id, row);
  await queueWebhookEvent(tx, space.workspaceId, 'alias.moved', { space: { id: space.id, name: space.name }, alias: { name, version, url: alias.url } });
  return alias;
}

export async function setAlias(caller: SignedInCaller, id: string, name: string, version: number): Promise<Alias> {
  const { space } = await spaceWith(caller, id, 'push');
  if (version > space.latestVersion) {
    throw new ApiError('bad_request', space.latestVersion ? `There is no version ${version}: the latest is ${space.latestVersion}.` : 'Nothing has been published in this space yet.');
  }
  return db.$transaction((tx) => moveAlias(tx, space, name, version, caller.actor.user.id));
}

export async function removeAlias(caller: SignedInCaller, id: string, name: string): Promise<void> {
  const { space } = await spaceWith(caller, id, 'push');
  const { count } = await db.spaceAlias.deleteMany({ where: { spaceId: space.id, name } });
  if (!count) throw new ApiError('not_found', `No alias "${name}" in this space.`);
}

/** The version an alias serves, or null when the space has no such alias. */
export async function aliasVersion(spaceId: string, name: string): Promise<number | null> {
  const row = await db.spaceAlias.findUnique({ where: { spaceId_name: { spaceId, name } }, select: { version: true } });
  return row?.version ?? null;
}
