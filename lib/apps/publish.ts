// Publishing a build's files as a new version of the app's space, with the
// same pieces the push cycle uses (lib/spaces/publishing.ts): blobs into the
// blob store, counted against the workspace's storage, then one transaction
// that locks the space row, stores the manifest chunks and adds the version.
// It runs as the app (no push permission is asked: a room editor builds apps
// without being able to push to the workspace's spaces).
import { createHash } from 'node:crypto';
import { db } from '../db/client.ts';
import { chunkEntries, chunkRefs, comparePaths, storeChunks, type Entry } from '../spaces/manifest.ts';
import { spaceChanged } from '../spaces/space-cache.ts';
import { blobStore } from '../storage/index.ts';
import { claimBlob, holdBlob, releaseReservation, reserveStorage, touchBlobs } from '../storage/usage.ts';
import type { AppFile } from './render.ts';

async function storeBlob(workspaceId: string, file: AppFile): Promise<Entry> {
  const sha256 = createHash('sha256').update(file.content).digest('hex');
  const entry = { path: file.path, sha256, size: file.content.byteLength, contentType: file.contentType };
  if (await touchBlobs(db, workspaceId, [sha256])) return entry;
  const reservation = await reserveStorage(workspaceId, entry.size);
  try {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(file.content));
        controller.close();
      },
    });
    const stored = await blobStore().put(body, { sha256, maxBytes: entry.size, admit: claimBlob });
    await holdBlob(db, reservation, stored);
  } catch (error) {
    await releaseReservation(reservation);
    throw error;
  }
  return entry;
}

/** Stores the files and commits them as the space's next version; returns its number. */
export async function publishFiles(spaceId: string, authorId: string, files: AppFile[], message: string): Promise<number> {
  const space = await db.space.findUniqueOrThrow({ where: { id: spaceId }, select: { workspaceId: true } });
  const entries: Entry[] = [];
  for (const file of files) entries.push(await storeBlob(space.workspaceId, file));
  entries.sort((a, b) => comparePaths(a.path, b.path));
  const chunks = chunkEntries(entries);
  const refs = chunkRefs(chunks);
  const bytes = entries.reduce((sum, e) => sum + e.size, 0);
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ latestVersion: number }[]>`SELECT "latestVersion" FROM "Space" WHERE "id" = ${spaceId} FOR UPDATE`;
    // The blobs stay held by the workspace while this version references them.
    await touchBlobs(tx, space.workspaceId, entries.map((e) => e.sha256));
    await storeChunks(chunks, tx);
    const number = locked.latestVersion + 1;
    await tx.version.create({ data: { spaceId, number, message, authorId, fileCount: entries.length, bytes: BigInt(bytes), chunks: refs } });
    await tx.space.update({ where: { id: spaceId }, data: { latestVersion: number } });
    return number;
  }).finally(() => spaceChanged(spaceId));
}
