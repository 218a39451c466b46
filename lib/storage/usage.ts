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
import { LIVE_TOKEN } from '../auth/tokens.ts';
import { limitsOf, planName, upgradeHint } from '../billing/plans.ts';
import { db, query, type PrismaClient } from '../db/client.ts';
import type { Plan } from '../db/generated/client.ts';
import { formatBytes } from '../format.ts';
import { ApiError } from '../core/errors.ts';
import type { StoredBlob } from './index.ts';

type Sql = Pick<PrismaClient, '$queryRaw' | '$executeRaw' | '$executeRawUnsafe'>;

/** A reservation outlives its upload only after a crash; it then stops counting after this long. */
export const RESERVATION_TTL_MS = 6 * 60 * 60 * 1000;

export type StorageUsage = { slug: string; plan: Plan; used: number; reserved: number; limit: number | null };

/** What the workspace holds, what uploads in flight have reserved, and its limit: one primary-key read. */
export async function storageUsage(workspaceId: string, sql: Sql = db): Promise<StorageUsage> {
  const [row] = await sql.$queryRaw<{ slug: string; plan: Plan; storageBytes: bigint; storageReserved: bigint }[]>`
    SELECT "slug", "plan", "storageBytes", "storageReserved" FROM "Workspace" WHERE "id" = ${workspaceId}`;
  if (!row) throw new ApiError('not_found', 'This workspace no longer exists.');
  return { slug: row.slug, plan: row.plan, used: Number(row.storageBytes), reserved: Number(row.storageReserved), limit: limitsOf(row).storageBytes };
}

/** The 403 of a file that does not fit: names the limit, the plan, and the plan that lifts it. */
export function storageFull(usage: StorageUsage, adding: number): ApiError {
  const upgrade = upgradeHint(usage, 'storageBytes');
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
  // Plain SQL: once per uploaded blob, a hot path.
  await query(
    `INSERT INTO "Blob" ("sha256", "size") VALUES ($1, $2)
     ON CONFLICT ("sha256") DO UPDATE SET "lastUsedAt" = now()`,
    [stored.sha256, stored.size],
  );
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
  const values = [reservation.id ?? '', workspaceId, stored.sha256, stored.size];
  // Outside a transaction (`db`), plain SQL on the shared pool: once per uploaded blob, a hot path.
  if (sql === db) await query(HOLD_BLOB_ALONE, values);
  else await sql.$executeRawUnsafe(HOLD_BLOB, ...values);
}

// The Blob row is written here too, so a blob PUT (whose existing Blob row
// startBlobPut refreshed before reading the bytes) needs no claimBlob.
const HOLD_BLOB = `
  WITH blob AS (
    INSERT INTO "Blob" ("sha256", "size") VALUES ($3, $4)
    ON CONFLICT ("sha256") DO UPDATE SET "lastUsedAt" = now()
  ), reserved AS (
    DELETE FROM "StorageReservation" WHERE "id" = $1 RETURNING "bytes"
  ), held AS (
    INSERT INTO "WorkspaceBlob" ("workspaceId", "sha256") VALUES ($2, $3)
    ON CONFLICT ("workspaceId", "sha256") DO UPDATE SET "lastUsedAt" = now()
    RETURNING (xmax = 0) AS "inserted"
  )
  UPDATE "Workspace" SET
    "storageBytes" = "storageBytes" + CASE WHEN (SELECT "inserted" FROM held) THEN $4::bigint ELSE 0 END,
    "storageReserved" = "storageReserved" - COALESCE((SELECT "bytes" FROM reserved), 0)
  WHERE "id" = $2`;

// Alone, the statement commits without waiting for its WAL to reach the disk
// (synchronous_commit off, for this transaction only): a PUT then costs no
// disk flush of PostgreSQL's. Nothing is lost by it: whatever names the blob
// (a version, a source) commits synchronously later, which flushes this
// first; a crash of PostgreSQL itself may forget the last fraction of a
// second of holds, and their pushes then plan again and upload those blobs.
const HOLD_BLOB_ALONE = `${HOLD_BLOB} AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'`;

/** Each plan's storage limit (null: none), as the hot statements take it. */
const planLimits = () => JSON.stringify(Object.fromEntries((['free', 'pro', 'team', 'enterprise'] as const satisfies readonly Plan[]).map((plan) => [plan, limitsOf({ plan }).storageBytes])));

export type BlobPutStart =
  /** The caller's token was revoked or has expired: nothing else was looked at. */
  | { live: false }
  | ({ live: true } & (
      /** No such space. */
      | { found: false }
      /** The space exists but the caller is not a member who may push: let the general check say why. */
      | { found: true; pusher: false }
      /** The workspace already holds the blob (now refreshed): nothing to read. */
      | { found: true; pusher: true; held: true; workspaceId: string; room: number | null }
      /**
       * The blob is to be read: `reservation` holds `length` bytes of room (id
       * null when the plan has no limit); null when no length was given or it was
       * over `maxBytes`. `full` when the workspace has no room for it.
       */
      | { found: true; pusher: true; held: false; workspaceId: string; reservation: Reservation | null; full: boolean; room: number | null }
    ));

/**
 * The start of a blob PUT in one statement: the space and the caller's
 * membership, refreshing the blob when the workspace holds it, else reserving
 * `length` bytes of room (see reserveStorage; the limit is checked on the
 * workspace row under its lock) and refreshing the blob's Blob row if there is
 * one. That refresh does claimBlob's work before the bytes are read: the
 * collector cannot delete those bytes during the grace period that starts
 * here, and a Blob row that does not exist yet has nothing to collect.
 * `pushRoles` are the roles that may push. It also checks the caller's token
 * (`tokenId`, which must be live and the user's), so the route may name the
 * caller from a recent lookup (Endpoint.checksOwnToken).
 */
export async function startBlobPut(input: {
  spaceId: string;
  userId: string;
  tokenId: string;
  sha256: string;
  length: number | null;
  maxBytes: number;
  pushRoles: string[];
}): Promise<BlobPutStart> {
  const reservationId = randomUUID();
  const length = input.length !== null && input.length <= input.maxBytes ? input.length : null;
  const [row] = await query<{ live: boolean; workspaceId: string | null; role: string | null; plan: Plan; touched: number; reserved: number; used: string | null }>(
    `WITH live AS (
       SELECT 1 FROM "Token" t WHERE t."id" = $9 AND t."userId" = $2 AND ${LIVE_TOKEN}
     ), s AS (
       SELECT s."id", s."workspaceId", m."role", w."plan"
       FROM "Space" s JOIN "Workspace" w ON w."id" = s."workspaceId"
       LEFT JOIN "Membership" m ON m."workspaceId" = s."workspaceId" AND m."userId" = $2 AND m."status" = 'accepted'
       WHERE s."id" = $1 AND EXISTS (SELECT 1 FROM live)
     ), pusher AS (
       SELECT * FROM s WHERE s."role"::text = ANY($4::text[])
     ), touched AS (
       UPDATE "WorkspaceBlob" wb SET "lastUsedAt" = now() FROM pusher
       WHERE wb."workspaceId" = pusher."workspaceId" AND wb."sha256" = $3
       RETURNING 1
     ), reserved AS (
       UPDATE "Workspace" w SET "storageReserved" = w."storageReserved" + $5::bigint FROM pusher
       WHERE w."id" = pusher."workspaceId" AND $5::bigint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM touched)
         AND ($6::jsonb ->> pusher."plan"::text) IS NOT NULL
         AND w."storageBytes" + w."storageReserved" + $5::bigint <= ($6::jsonb ->> pusher."plan"::text)::bigint
       RETURNING w."id"
     ), booked AS (
       INSERT INTO "StorageReservation" ("id", "workspaceId", "bytes", "expiresAt")
       SELECT $7, "id", $5::bigint, now() + make_interval(secs => $8) FROM reserved
       RETURNING 1
     ), claimed AS (
       UPDATE "Blob" b SET "lastUsedAt" = now() FROM pusher
       WHERE b."sha256" = $3 AND NOT EXISTS (SELECT 1 FROM touched)
     )
     SELECT EXISTS (SELECT 1 FROM live) AS "live", s."workspaceId", s."role", s."plan",
       (SELECT count(*) FROM touched)::int AS "touched", (SELECT count(*) FROM booked)::int AS "reserved",
       (SELECT w."storageBytes" + w."storageReserved" FROM "Workspace" w WHERE w."id" = s."workspaceId")::text AS "used"
     FROM (SELECT 1) AS one LEFT JOIN s ON true`,
    [input.spaceId, input.userId, input.sha256, input.pushRoles, length, planLimits(), reservationId, RESERVATION_TTL_MS / 1000, input.tokenId],
  );
  if (!row.live) return { live: false };
  const { workspaceId } = row;
  if (workspaceId === null) return { live: true, found: false };
  if (row.role === null || !input.pushRoles.includes(row.role)) return { live: true, found: true, pusher: false };
  const limit = limitsOf({ plan: row.plan }).storageBytes;
  // What is left of the limit as this statement began, less what it reserved.
  const room = limit === null ? null : limit - Number(row.used) - (row.reserved ? length! : 0);
  const found = { live: true, found: true, pusher: true, workspaceId, room } as const;
  if (row.touched) return { ...found, held: true };
  if (length === null) return { ...found, held: false, reservation: null, full: false };
  if (limit === null) return { ...found, held: false, reservation: { id: null, workspaceId, limit: null }, full: false };
  if (row.reserved) return { ...found, held: false, reservation: { id: reservationId, workspaceId, limit }, full: false };
  return { ...found, held: false, reservation: null, full: true };
}

export type BlobPutRecord =
  /** The caller's token was revoked or has expired. */
  | { live: false; blobNew: boolean }
  /** No such space, or the caller may not push to it, or the blob does not fit: nothing was recorded for the workspace. */
  | { live: true; recorded: false; workspaceId: string | null; blobNew: boolean }
  /**
   * The workspace holds the blob now. `room` is what is left of its limit
   * (null without one); `blobNew` says the Blob row was written anew.
   */
  | { live: true; recorded: true; workspaceId: string; blobNew: boolean; room: number | null };

/**
 * A whole blob PUT in one statement, once its bytes are in place: the
 * caller's token (which must be live and the user's), the space and the
 * caller's accepted role in `pushRoles`, the limit (checked on the workspace
 * row, locked here, so racing PUTs never pass it together), the blob's rows
 * and the workspace's count. The Blob row is written whatever the answer, so
 * bytes this statement refuses are the collector's once unused for its grace
 * period; `blobNew` tells the store to check that its bytes are still there
 * (the row of an older copy may have been collected meanwhile).
 */
export async function recordBlobPut(input: { spaceId: string; userId: string; tokenId: string; stored: StoredBlob; pushRoles: string[] }): Promise<BlobPutRecord> {
  const { stored } = input;
  const values = [input.spaceId, input.userId, stored.sha256, stored.size, input.pushRoles, planLimits(), input.tokenId];
  type Row = { live: boolean; workspaceId: string | null; blobNew: boolean; recorded: boolean; room: string | null };
  // It locks the workspace row before the workspace's blob, where a hold and
  // the collector lock the blob first: of two such statements on the same
  // blob, PostgreSQL may end one as a deadlock; this one then runs again.
  const [row] = await query<Row>(RECORD_BLOB_PUT, values).catch((error) => {
    if ((error as { code?: string }).code !== DEADLOCK) throw error;
    return query<Row>(RECORD_BLOB_PUT, values);
  });
  if (!row.live) return { live: false, blobNew: row.blobNew };
  if (!row.recorded) return { live: true, recorded: false, workspaceId: row.workspaceId, blobNew: row.blobNew };
  return { live: true, recorded: true, workspaceId: row.workspaceId!, blobNew: row.blobNew, room: row.room === null ? null : Number(row.room) };
}

const DEADLOCK = '40P01';

// The workspace row is locked before the workspace's blob is written, so the
// room read there is the latest and no other PUT changes it until this one
// commits. Committed without waiting for a WAL flush, as HOLD_BLOB_ALONE.
const RECORD_BLOB_PUT = `
  WITH blob AS (
    INSERT INTO "Blob" ("sha256", "size") VALUES ($3, $4)
    ON CONFLICT ("sha256") DO UPDATE SET "lastUsedAt" = now()
    RETURNING (xmax = 0) AS "inserted"
  ), live AS (
    SELECT 1 FROM "Token" t WHERE t."id" = $7 AND t."userId" = $2 AND ${LIVE_TOKEN}
  ), s AS (
    SELECT s."workspaceId", m."role", w."plan"
    FROM "Space" s JOIN "Workspace" w ON w."id" = s."workspaceId"
    LEFT JOIN "Membership" m ON m."workspaceId" = s."workspaceId" AND m."userId" = $2 AND m."status" = 'accepted'
    WHERE s."id" = $1 AND EXISTS (SELECT 1 FROM live)
  ), ws AS (
    SELECT w."id", w."storageBytes" + w."storageReserved" AS "used", ($6::jsonb ->> s."plan"::text)::bigint AS "limit"
    FROM "Workspace" w JOIN s ON w."id" = s."workspaceId"
    WHERE s."role"::text = ANY($5::text[])
    FOR NO KEY UPDATE OF w
  ), held AS (
    INSERT INTO "WorkspaceBlob" ("workspaceId", "sha256")
    SELECT ws."id", $3 FROM ws
    WHERE ws."limit" IS NULL OR ws."used" + $4::bigint <= ws."limit"
      OR EXISTS (SELECT 1 FROM "WorkspaceBlob" wb WHERE wb."workspaceId" = ws."id" AND wb."sha256" = $3)
    ON CONFLICT ("workspaceId", "sha256") DO UPDATE SET "lastUsedAt" = now()
    RETURNING (xmax = 0) AS "inserted"
  ), counted AS (
    UPDATE "Workspace" w SET "storageBytes" = w."storageBytes" + $4::bigint
    FROM held, ws WHERE w."id" = ws."id" AND held."inserted"
  )
  SELECT EXISTS (SELECT 1 FROM live) AS "live", s."workspaceId", (SELECT "inserted" FROM blob) AS "blobNew",
    EXISTS (SELECT 1 FROM held) AS "recorded",
    (ws."limit" - ws."used" - CASE WHEN (SELECT "inserted" FROM held) THEN $4::bigint ELSE 0 END)::text AS "room",
    set_config('synchronous_commit', 'off', true) AS "async"
  FROM (SELECT 1) AS one LEFT JOIN s ON true LEFT JOIN ws ON true`;

/**
 * Refreshes the workspace's blobs among `hashes` (a plan or commit is about to
 * reference them), locking them in a fixed order so that the collector skips
 * them until this transaction ends. Returns how many the workspace still has.
 * The locked rows are found again by their physical address (`ctid`), which
 * PostgreSQL reads one row per lookup whatever its statistics say: joined by
 * hash instead, a plan made while the table's statistics still counted it
 * nearly empty (just after a large first push) scanned the whole table for
 * each blob, and a second push of 10,001 files sat minutes in this statement.
 */
export async function touchBlobs(tx: Sql, workspaceId: string, hashes: string[]): Promise<number> {
  const unique = [...new Set(hashes)];
  if (!unique.length) return 0;
  return tx.$executeRaw`
    WITH locked AS (
      SELECT ctid AS "row" FROM "WorkspaceBlob" WHERE "workspaceId" = ${workspaceId} AND "sha256" = ANY(${unique}::text[]) ORDER BY "sha256" FOR UPDATE
    )
    UPDATE "WorkspaceBlob" w SET "lastUsedAt" = now() FROM locked WHERE w.ctid = locked."row"`;
}
