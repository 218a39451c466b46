// Storage accounting: a workspace uses the bytes of the distinct blobs it
// holds (its WorkspaceBlob rows), kept in Workspace.storageBytes and changed
// in the same transaction as those rows, so reading it is one primary-key
// lookup. A blob used by two spaces of one workspace counts once; two
// workspaces holding the same bytes each count them (each had to upload them).
//
// The plan's limit is checked where bytes arrive. With a Content-Length the
// room is reserved before any byte is read (StorageReservation), so racing
// uploads never pass the limit together; without one the bytes are checked
// once hashed, before they are made visible, and again when recorded.
// Reserved bytes are kept in Workspace.storageReserved beside the rows that
// explain them, so a crashed upload's room comes back when its row expires.
import { randomUUID } from 'node:crypto';
import { limitsOf, planName, upgradeHint } from '../billing/plans.ts';
import { db, type PrismaClient } from '../db/client.ts';
import type { Plan } from '../db/generated/client.ts';
import { formatBytes } from '../format.ts';
import { ApiError } from '../http/errors.ts';
import type { StoredBlob } from './index.ts';

type Sql = Pick<PrismaClient, '$queryRaw' | '$executeRaw'>;

/** A reservation outlives its upload only after a crash; it then stops counting after this long. */
export const RESERVATION_TTL_MS = 6 * 60 * 60 * 1000;

export type StorageUsage = { plan: Plan; used: number; reserved: number; limit: number | null };

/** What the workspace holds, what uploads in flight have reserved, and its limit: one primary-key read. */
export async function storageUsage(workspaceId: string, sql: Sql = db): Promise<StorageUsage> {
  const [row] = await sql.$queryRaw<{ plan: Plan; storageBytes: bigint; storageReserved: bigint }[]>`
    SELECT "plan", "storageBytes", "storageReserved" FROM "Workspace" WHERE "id" = ${workspaceId}`;
  if (!row) throw new ApiError('not_found', 'This workspace no longer exists.');
  return { plan: row.plan, used: Number(row.storageBytes), reserved: Number(row.storageReserved), limit: limitsOf(row).storageBytes };
}

/** The 403 of a file that does not fit: names the limit, the plan, and the plan that lifts it. */
export function storageFull(usage: StorageUsage, adding: number): ApiError {
  const upgrade = upgradeHint(usage.plan, 'storageBytes');
  const inFlight = usage.reserved ? ` (and ${formatBytes(usage.reserved)} being uploaded)` : '';
  return new ApiError(
    'forbidden',
    `This workspace has used ${formatBytes(usage.used)}${inFlight} of its ${planName(usage.plan)} plan's ${formatBytes(usage.limit ?? 0)} of storage; ` +
      `this file of ${formatBytes(adding)} does not fit. Delete uploads or spaces to free room.${upgrade}`,
  );
}

const fits = (usage: StorageUsage, bytes: number) => usage.limit === null || usage.used + usage.reserved + bytes <= usage.limit;

/** Refuses (403) a file of `bytes` that would not fit, without holding room for it. */
export async function checkRoom(workspaceId: string, bytes: number): Promise<void> {
  const usage = await storageUsage(workspaceId);
  if (!fits(usage, bytes)) throw storageFull(usage, bytes);
}

/** Room held for one upload; `id` is null when the workspace has no limit (nothing to hold). */
export type Reservation = { id: string | null; workspaceId: string; limit: number | null };

/**
 * Holds `bytes` of the workspace's room for an upload about to be read, or
 * refuses it (403). The condition is evaluated on the workspace row under its
 * lock, in the statement that raises the reserved count, so two racing
 * uploads cannot both take the last room.
 */
export async function reserveStorage(workspaceId: string, bytes: number): Promise<Reservation> {
  const usage = await storageUsage(workspaceId);
  if (usage.limit === null) return { id: null, workspaceId, limit: null };
  if (!fits(usage, bytes)) throw storageFull(usage, bytes);
  const id = randomUUID();
  const held = await db.$executeRaw`
    WITH held AS (
      UPDATE "Workspace" SET "storageReserved" = "storageReserved" + ${BigInt(bytes)}
      WHERE "id" = ${workspaceId} AND "storageBytes" + "storageReserved" + ${BigInt(bytes)} <= ${BigInt(usage.limit)}
      RETURNING "id"
    )
    INSERT INTO "StorageReservation" ("id", "workspaceId", "bytes", "expiresAt")
    SELECT ${id}, "id", ${BigInt(bytes)}, now() + make_interval(secs => ${RESERVATION_TTL_MS / 1000}) FROM held`;
  if (!held) {
    const now = await storageUsage(workspaceId);
    throw storageFull(now, bytes);
  }
  return { id, workspaceId, limit: usage.limit };
}

/** Gives back a reservation's room (an upload that failed); nothing when it was used or has expired. */
export async function releaseReservation(reservation: Reservation | null): Promise<void> {
  if (!reservation?.id) return;
  await db.$executeRaw`
    WITH gone AS (DELETE FROM "StorageReservation" WHERE "id" = ${reservation.id} RETURNING "workspaceId", "bytes")
    UPDATE "Workspace" w SET "storageReserved" = w."storageReserved" - gone."bytes" FROM gone WHERE w."id" = gone."workspaceId"`;
}

/** Drops reservations left by crashed uploads; returns how many. */
export async function expireReservations(): Promise<number> {
  const [row] = await db.$queryRaw<{ count: bigint }[]>`
    WITH gone AS (DELETE FROM "StorageReservation" WHERE "expiresAt" <= now() RETURNING "workspaceId", "bytes"),
    per AS (SELECT "workspaceId", SUM("bytes") AS "bytes" FROM gone GROUP BY "workspaceId"),
    counted AS (UPDATE "Workspace" w SET "storageReserved" = w."storageReserved" - per."bytes" FROM per WHERE w."id" = per."workspaceId")
    SELECT COUNT(*)::bigint AS "count" FROM gone`;
  return Number(row.count);
}

/**
 * Notes that bytes are about to be named (called by the store's `admit`,
 * before they are visible): the collector keeps a Blob row used within its
 * grace period, and waits for this statement if it is deleting the same one.
 */
export async function claimBlob(stored: StoredBlob): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "Blob" ("sha256", "size") VALUES (${stored.sha256}, ${BigInt(stored.size)})
    ON CONFLICT ("sha256") DO UPDATE SET "lastUsedAt" = now()`;
}

/**
 * Records that the workspace holds a stored (and claimed) blob, counts its
 * bytes when it is new to the workspace and turns the reservation into use:
 * one statement. Without a reservation but with a limit (a blob PUT without
 * Content-Length) the limit is checked under the workspace's lock first, so
 * `sql` must then be a transaction.
 */
export async function holdBlob(sql: Sql, reservation: Reservation, stored: StoredBlob): Promise<void> {
  const { workspaceId } = reservation;
  if (!reservation.id && reservation.limit !== null) {
    await sql.$queryRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspaceId} FOR NO KEY UPDATE`;
    const [have] = await sql.$queryRaw<{ n: bigint }[]>`SELECT COUNT(*)::bigint AS "n" FROM "WorkspaceBlob" WHERE "workspaceId" = ${workspaceId} AND "sha256" = ${stored.sha256}`;
    const usage = await storageUsage(workspaceId, sql);
    if (!have.n && !fits(usage, stored.size)) throw storageFull(usage, stored.size);
  }
  // A reservation that expired while its upload ran was already given back; its bytes then count without one.
  await sql.$executeRaw`
    WITH reserved AS (
      DELETE FROM "StorageReservation" WHERE "id" = ${reservation.id ?? ''} RETURNING "bytes"
    ), held AS (
      INSERT INTO "WorkspaceBlob" ("workspaceId", "sha256") VALUES (${workspaceId}, ${stored.sha256})
      ON CONFLICT ("workspaceId", "sha256") DO UPDATE SET "lastUsedAt" = now()
      RETURNING (xmax = 0) AS "inserted"
    )
    UPDATE "Workspace" SET
      "storageBytes" = "storageBytes" + CASE WHEN (SELECT "inserted" FROM held) THEN ${BigInt(stored.size)} ELSE 0 END,
      "storageReserved" = "storageReserved" - COALESCE((SELECT "bytes" FROM reserved), 0)
    WHERE "id" = ${workspaceId}`;
}

/**
 * Refreshes the workspace's blobs among `hashes` (a plan or commit is about to
 * reference them), locking them in a fixed order so that the collector skips
 * them until this transaction ends. Returns how many the workspace still has.
 */
export async function touchBlobs(tx: Sql, workspaceId: string, hashes: string[]): Promise<number> {
  const unique = [...new Set(hashes)];
  if (!unique.length) return 0;
  return tx.$executeRaw`
    UPDATE "WorkspaceBlob" w SET "lastUsedAt" = now()
    FROM (SELECT "sha256" FROM "WorkspaceBlob" WHERE "workspaceId" = ${workspaceId} AND "sha256" = ANY(${unique}::text[]) ORDER BY "sha256" FOR UPDATE) l
    WHERE w."workspaceId" = ${workspaceId} AND w."sha256" = l."sha256"`;
}
