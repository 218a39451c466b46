// The storage collector: reclaims what nothing references any more.
//
// 1. A workspace's blob (WorkspaceBlob) that no version manifest and no upload
//    of its spaces lists, unused for the grace period, is let go and its bytes
//    leave the workspace's count (lib/storage/usage.ts).
// 2. A blob (Blob) no workspace holds, unused for the grace period, has its
//    bytes deleted from the store, then its row.
// 3. Temporary files of uploads cut off or crashed, untouched for the grace
//    period, are removed from the store.
//
// Racing pushes and uploads are safe: whatever is about to reference a blob
// refreshes its `lastUsedAt` (a plan, a blob PUT, an upload) or locks and
// refreshes it inside its own transaction (a commit, for the blobs its version
// adds). Deletions re-check the grace period and the uploads in the deleting
// statement itself and skip rows locked by such a transaction (SKIP LOCKED);
// a commit whose blob went before it locked it finds it missing and answers
// 409 (plan again). Bytes are deleted while their Blob row is locked, and a
// store writes or refreshes a blob's row before making its bytes visible
// (claimBlob; a blob PUT refreshes it before reading them, in startBlobPut),
// so bytes being stored again are never deleted. A one-statement blob PUT
// (recordBlobPut) makes its bytes visible first and writes the row after; when
// that row is new (an older one may have gone with these very bytes) the store
// checks the bytes are still there and puts them back from its temporary copy.
// Several instances may sweep at once: they skip each other's rows.
import { gunzipSync } from 'node:zlib';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { log } from '../log.ts';
import { storageSweeps, storageSweptBlobs } from '../core/metrics.ts';
import { blobStore, type BlobStore } from './index.ts';
import { expireReservations } from './usage.ts';

export type SweepResult = {
  /** Blobs let go by workspaces, and the bytes that left their counts. */
  released: number;
  releasedBytes: number;
  /** Blobs whose bytes were deleted from the store. */
  deleted: number;
  temporary: number;
  reservations: number;
};

const BATCH = 500;

/** One pass of the collector. `graceMs` and `store` are for tests. */
export async function sweepStorage(options: { graceMs?: number; store?: BlobStore } = {}): Promise<SweepResult> {
  const graceSeconds = (options.graceMs ?? config.storageGraceMs) / 1000;
  const store = options.store ?? blobStore();
  const result: SweepResult = { released: 0, releasedBytes: 0, deleted: 0, temporary: 0, reservations: 0 };

  result.reservations = await expireReservations();

  const workspaces = await db.$queryRaw<{ workspaceId: string }[]>`
    SELECT DISTINCT "workspaceId" FROM "WorkspaceBlob" WHERE "lastUsedAt" < now() - make_interval(secs => ${graceSeconds})`;
  for (const { workspaceId } of workspaces) {
    const { count, bytes } = await releaseUnreferenced(workspaceId, graceSeconds);
    result.released += count;
    result.releasedBytes += bytes;
  }

  for (;;) {
    const deleted = await deleteOrphans(store, graceSeconds);
    result.deleted += deleted;
    if (deleted < BATCH) break;
  }

  result.temporary = await store.sweepTemporary(new Date(Date.now() - graceSeconds * 1000));
  return result;
}

/** The blobs among `candidates` that a version of one of the workspace's spaces lists. */
async function listedByVersions(workspaceId: string, candidates: Set<string>): Promise<Set<string>> {
  const listed = new Set<string>();
  const chunks = await db.$queryRaw<{ hash: string }[]>`
    SELECT DISTINCT c->>'hash' AS "hash"
    FROM "Version" v JOIN "Space" s ON s."id" = v."spaceId", jsonb_array_elements(v."chunks") c
    WHERE s."workspaceId" = ${workspaceId}`;
  // Read directly, not through the manifest cache, so a sweep does not evict what serving uses.
  for (let i = 0; i < chunks.length && listed.size < candidates.size; i += 100) {
    const batch = chunks.slice(i, i + 100).map((c) => c.hash);
    const rows = await db.$queryRaw<{ data: Uint8Array }[]>`SELECT "data" FROM "ManifestChunk" WHERE "hash" = ANY(${batch}::text[])`;
    if (rows.length < batch.length) throw new Error(`A manifest chunk of workspace ${workspaceId} is missing; nothing of it is collected.`);
    for (const row of rows) {
      for (const [, sha256] of JSON.parse(gunzipSync(row.data).toString('utf8')) as [string, string][]) {
        if (candidates.has(sha256)) listed.add(sha256);
      }
    }
  }
  return listed;
}

async function releaseUnreferenced(workspaceId: string, graceSeconds: number): Promise<{ count: number; bytes: number }> {
  const idle = await db.$queryRaw<{ sha256: string }[]>`
    SELECT wb."sha256" FROM "WorkspaceBlob" wb
    WHERE wb."workspaceId" = ${workspaceId} AND wb."lastUsedAt" < now() - make_interval(secs => ${graceSeconds})
      AND NOT EXISTS (SELECT 1 FROM "Upload" u JOIN "Space" s ON s."id" = u."spaceId" WHERE s."workspaceId" = ${workspaceId} AND u."sha256" = wb."sha256")`;
  if (!idle.length) return { count: 0, bytes: 0 };
  const candidates = new Set(idle.map((r) => r.sha256));
  const listed = await listedByVersions(workspaceId, candidates);
  const unreferenced = [...candidates].filter((h) => !listed.has(h));
  let count = 0;
  let bytes = 0;
  for (let i = 0; i < unreferenced.length; i += BATCH) {
    const batch = unreferenced.slice(i, i + BATCH);
    // One statement: the grace period and the uploads are checked again on
    // rows locked here, rows another transaction holds are skipped, and the
    // count drops by exactly what was deleted.
    const [row] = await db.$queryRaw<{ count: bigint; bytes: bigint }[]>`
      WITH locked AS (
        SELECT wb."sha256" FROM "WorkspaceBlob" wb
        WHERE wb."workspaceId" = ${workspaceId} AND wb."sha256" = ANY(${batch}::text[])
          AND wb."lastUsedAt" < now() - make_interval(secs => ${graceSeconds})
          AND NOT EXISTS (SELECT 1 FROM "Upload" u JOIN "Space" s ON s."id" = u."spaceId" WHERE s."workspaceId" = ${workspaceId} AND u."sha256" = wb."sha256")
        ORDER BY wb."sha256"
        FOR UPDATE OF wb SKIP LOCKED
      ), gone AS (
        DELETE FROM "WorkspaceBlob" wb USING locked, "Blob" b
        WHERE wb."workspaceId" = ${workspaceId} AND wb."sha256" = locked."sha256" AND b."sha256" = wb."sha256"
        RETURNING b."size"
      ), counted AS (
        UPDATE "Workspace" SET "storageBytes" = "storageBytes" - (SELECT COALESCE(SUM("size"), 0) FROM gone)
        WHERE "id" = ${workspaceId}
      )
      SELECT COUNT(*)::bigint AS "count", COALESCE(SUM("size"), 0)::bigint AS "bytes" FROM gone`;
    count += Number(row.count);
    bytes += Number(row.bytes);
  }
  return { count, bytes };
}

/** Deletes up to BATCH blobs no workspace holds: their bytes, then (in the same transaction, under its lock) their rows. */
async function deleteOrphans(store: BlobStore, graceSeconds: number): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<{ sha256: string }[]>`
        SELECT b."sha256" FROM "Blob" b
        WHERE b."lastUsedAt" < now() - make_interval(secs => ${graceSeconds})
          AND NOT EXISTS (SELECT 1 FROM "WorkspaceBlob" wb WHERE wb."sha256" = b."sha256")
        ORDER BY b."sha256"
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED`;
      if (!rows.length) return 0;
      const hashes = rows.map((r) => r.sha256);
      await store.delete(hashes);
      await tx.$executeRaw`DELETE FROM "Blob" WHERE "sha256" = ANY(${hashes}::text[])`;
      return hashes.length;
    },
    { maxWait: 30_000, timeout: 300_000 },
  );
}

let sweeper: NodeJS.Timeout | undefined;

/**
 * Runs the collector every STORAGE_SWEEP_SECONDS (off when 0) in this process,
 * one pass at a time. The front server calls it once at start; it returns a
 * function that stops it.
 */
export function startStorageSweeper(): () => void {
  if (sweeper || !config.storageSweepMs) return () => {};
  let running = false;
  sweeper = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const result = await sweepStorage();
      storageSweeps.inc({ outcome: 'done' });
      storageSweptBlobs.inc(result.deleted);
      if (result.released || result.deleted || result.temporary) log.info('storage sweep', result);
    } catch (error) {
      storageSweeps.inc({ outcome: 'failed' });
      log.error('storage sweep failed', { error: String(error) });
    } finally {
      running = false;
    }
  }, config.storageSweepMs);
  sweeper.unref();
  return () => {
    clearInterval(sweeper);
    sweeper = undefined;
  };
}
