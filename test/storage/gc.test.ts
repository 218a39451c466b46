// The storage collector: what it reclaims, and what it must never touch.
import { mkdir, mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUT as putBlobRoute } from '@/app/v1/spaces/[id]/blobs/[sha256]/route.ts';
import { POST as planRoute } from '@/app/v1/spaces/[id]/push/plan/route.ts';
import { POST as commitRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { FileAnswer } from '@/lib/core/files.ts';
import { fileParts } from '@/server/http/files.ts';
import { sweepStorage } from '@/lib/storage/gc.ts';
import { filesystemStore } from '@/lib/storage/filesystem.ts';
import { blobStore } from '@/lib/storage/index.ts';
import { storageUsage, touchBlobs } from '@/lib/storage/usage.ts';
import { call, signIn } from '../helpers.ts';
import { fileList, makeSpace, push, putBlob, sha } from '../spaces/fixtures.ts';

// Blobs of this file live apart: the collector deletes bytes.
config.dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-gc-'));

const HOUR = 60 * 60 * 1000;

/** Makes the workspace's blobs (and every blob row) look last used `hours` ago. */
async function age(workspaceId: string, hours = 2) {
  const mins = Math.round(hours * 60);
  await db.$executeRaw`UPDATE "WorkspaceBlob" SET "lastUsedAt" = now() - make_interval(mins => ${mins}) WHERE "workspaceId" = ${workspaceId}`;
  await db.$executeRaw`UPDATE "Blob" SET "lastUsedAt" = now() - make_interval(mins => ${mins})`;
}

const stored = async (content: string) => (await blobStore().get(sha(content))) !== null;

function commit(token: string, spaceId: string, files: Record<string, string>) {
  return call(commitRoute, 'POST', '', { token, body: { files: fileList(files) }, params: { id: spaceId } });
}

describe('the storage collector', () => {
  it('keeps a blob PUT but not yet committed within the grace period, and the commit then succeeds', async () => {
    const { token } = await signIn('gc-a');
    const space = await makeSpace(token, 'gc-a');
    expect((await putBlob(token, space.id, 'gc pending')).status).toBe(204);
    await age(space.workspace.id, 0.5);
    await sweepStorage({ graceMs: HOUR });
    expect(await stored('gc pending')).toBe(true);
    expect((await commit(token, space.id, { 'a.txt': 'gc pending' })).status).toBe(200);
    expect((await storageUsage(space.workspace.id)).used).toBe(10);
  });

  it('reclaims a blob PUT and never committed once the grace period has passed; a late commit is 409', async () => {
    const { token } = await signIn('gc-b');
    const space = await makeSpace(token, 'gc-b');
    await putBlob(token, space.id, 'gc abandoned');
    expect((await storageUsage(space.workspace.id)).used).toBe(12);
    await age(space.workspace.id);
    expect(await sweepStorage({ graceMs: HOUR })).toMatchObject({ released: 1, releasedBytes: 12, deleted: 1 });
    expect(await stored('gc abandoned')).toBe(false);
    expect((await storageUsage(space.workspace.id)).used).toBe(0);
    expect((await commit(token, space.id, { 'a.txt': 'gc abandoned' })).status).toBe(409);
  });

  it('never reclaims a blob any version lists, however old, nor an upload', async () => {
    const { token } = await signIn('gc-c');
    const space = await makeSpace(token, 'gc-c');
    await push(token, space.id, { 'index.html': 'gc v1 only', 'keep.txt': 'gc kept' });
    await push(token, space.id, { 'index.html': 'gc v2', 'keep.txt': 'gc kept' });
    await age(space.workspace.id, 48);
    expect(await sweepStorage({ graceMs: HOUR })).toMatchObject({ released: 0, deleted: 0 });
    for (const content of ['gc v1 only', 'gc v2', 'gc kept']) expect(await stored(content)).toBe(true);
    expect((await storageUsage(space.workspace.id)).used).toBe(10 + 5 + 7);
  });

  it('keeps a blob a plan has just listed, though it was uploaded long ago and nothing references it', async () => {
    const { token } = await signIn('gc-d');
    const space = await makeSpace(token, 'gc-d');
    await putBlob(token, space.id, 'gc replanned');
    await age(space.workspace.id);
    const plan = await call(planRoute, 'POST', '', { token, body: { files: fileList({ 'a.txt': 'gc replanned' }) }, params: { id: space.id } });
    expect(plan.json.missing).toEqual([]);
    await sweepStorage({ graceMs: HOUR });
    expect((await commit(token, space.id, { 'a.txt': 'gc replanned' })).status).toBe(200);
    expect(await stored('gc replanned')).toBe(true);
  });

  it('skips a blob a commit in flight has locked, and the commit keeps it', async () => {
    const { token } = await signIn('gc-e');
    const space = await makeSpace(token, 'gc-e');
    await putBlob(token, space.id, 'gc racing');
    await age(space.workspace.id);
    // What a commit's transaction does for the blobs its version adds, held open while the collector runs.
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const commit = db.$transaction(async (tx) => {
      expect(await touchBlobs(tx, space.workspace.id, [sha('gc racing')])).toBe(1);
      locked();
      await held;
    });
    await lockTaken;
    const sweep = await sweepStorage({ graceMs: HOUR });
    release();
    await commit;
    expect(sweep).toMatchObject({ released: 0 });
    expect(await stored('gc racing')).toBe(true);
    // And once refreshed it is within the grace period again.
    await sweepStorage({ graceMs: HOUR });
    expect(await stored('gc racing')).toBe(true);
  });

  it('deletes the bytes of a blob no workspace holds any more, and only those', async () => {
    const one = await signIn('gc-f');
    const two = await signIn('gc-g');
    const mine = await makeSpace(one.token, 'gc-f');
    const theirs = await makeSpace(two.token, 'gc-g');
    await push(one.token, mine.id, { 'a.txt': 'gc both hold', 'b.txt': 'gc only mine' });
    await push(two.token, theirs.id, { 'a.txt': 'gc both hold' });
    await db.workspace.delete({ where: { id: mine.workspace.id } });
    await age(theirs.workspace.id);
    await sweepStorage({ graceMs: HOUR });
    expect(await stored('gc only mine')).toBe(false);
    expect(await stored('gc both hold')).toBe(true);
    expect((await storageUsage(theirs.workspace.id)).used).toBe(12);
  });

  it('deletes the compressed copies of the blobs it deletes, and only those', async () => {
    const one = await signIn('gc-j');
    const two = await signIn('gc-k');
    const mine = await makeSpace(one.token, 'gc-j');
    const theirs = await makeSpace(two.token, 'gc-k');
    // Stylesheets large enough to be served compressed.
    const onlyMine = `.gc-only-mine {}\n`.repeat(100);
    const bothHold = `.gc-both-hold {}\n`.repeat(100);
    await push(one.token, mine.id, { 'a.css': bothHold, 'b.css': onlyMine });
    await push(two.token, theirs.id, { 'a.css': bothHold });
    const codings = ['br', 'gzip'] as const;
    for (const content of [onlyMine, bothHold]) {
      for (const coding of codings) {
        const served = await fileParts({ method: 'GET', headers: new Headers({ 'accept-encoding': coding }) }, new FileAnswer({ sha256: sha(content), size: content.length, contentType: 'text/css' }));
        expect(served.headers['content-encoding']).toBe(coding);
      }
    }
    const copies = async (content: string) => Promise.all(codings.map(async (coding) => (await blobStore().getCopy(sha(content), coding)) !== null));
    expect([await copies(onlyMine), await copies(bothHold)]).toEqual([[true, true], [true, true]]);
    await db.workspace.delete({ where: { id: mine.workspace.id } });
    await age(theirs.workspace.id);
    await sweepStorage({ graceMs: HOUR });
    expect(await stored(onlyMine)).toBe(false);
    expect(await copies(onlyMine)).toEqual([false, false]);
    expect(await stored(bothHold)).toBe(true);
    expect(await copies(bothHold)).toEqual([true, true]);
  });

  it('keeps the bytes of an old blob nobody holds while they are being stored again', async () => {
    const one = await signIn('gc-h');
    const two = await signIn('gc-i');
    const mine = await makeSpace(one.token, 'gc-h');
    const theirs = await makeSpace(two.token, 'gc-i');
    await push(one.token, mine.id, { 'a.txt': 'gc stored again' });
    await db.workspace.delete({ where: { id: mine.workspace.id } });
    await age(theirs.workspace.id);
    // The same bytes PUT again; their body is held back until the collector has run.
    const content = new TextEncoder().encode('gc stored again');
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          reading();
          await released;
          controller.enqueue(content);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://localhost/v1/spaces/${theirs.id}/blobs/${sha('gc stored again')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${two.token}`, 'content-length': String(content.byteLength) },
      body,
      duplex: 'half',
    } as RequestInit);
    const put = putBlobRoute(request, { params: Promise.resolve({ id: theirs.id, sha256: sha('gc stored again') }) });
    await read;
    expect(await sweepStorage({ graceMs: HOUR })).toMatchObject({ deleted: 0 });
    expect(await stored('gc stored again')).toBe(true);
    release();
    expect((await put).status).toBe(204);
    expect((await commit(two.token, theirs.id, { 'a.txt': 'gc stored again' })).status).toBe(200);
    expect(await stored('gc stored again')).toBe(true);
  });

  it('puts back bytes the collector deleted between a one-statement PUT storing them and its statement', async () => {
    const one = await signIn('gc-l');
    const two = await signIn('gc-m');
    const mine = await makeSpace(one.token, 'gc-l');
    const theirs = await makeSpace(two.token, 'gc-m');
    const content = 'gc put back';
    await push(one.token, mine.id, { 'a.txt': content });
    await db.workspace.delete({ where: { id: mine.workspace.id } });
    expect((await putBlob(two.token, theirs.id, 'gc warm up')).status).toBe(204);
    await age(theirs.workspace.id);
    // The collector's steps (deleteOrphans), held open: the old Blob row is locked before the PUT starts.
    let deleteBytes!: () => void;
    const deleting = new Promise<void>((resolve) => (deleteBytes = resolve));
    const collector = db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Blob" WHERE "sha256" = ${sha(content)} FOR UPDATE`;
      await deleting;
      await blobStore().delete([sha(content)]);
      await tx.$executeRaw`DELETE FROM "Blob" WHERE "sha256" = ${sha(content)}`;
    });
    const put = putBlob(two.token, theirs.id, content);
    // The PUT's bytes are in place and its statement waits for the collector's lock.
    for (;;) {
      const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      if (row.n > 0n) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    deleteBytes();
    await collector;
    expect((await put).status).toBe(204);
    expect(await stored(content)).toBe(true);
    expect((await commit(two.token, theirs.id, { 'a.txt': content })).status).toBe(200);
  });

  it('removes temporary files untouched for the grace period and keeps fresh ones', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'atrium-gc-tmp-'));
    const store = filesystemStore(root);
    await mkdir(path.join(root, 'tmp'));
    await writeFile(path.join(root, 'tmp', 'crashed-upload'), 'partial');
    const old = new Date(Date.now() - 2 * HOUR);
    await utimes(path.join(root, 'tmp', 'crashed-upload'), old, old);
    await writeFile(path.join(root, 'tmp', 'upload-in-progress'), 'partial');
    const result = await sweepStorage({ graceMs: HOUR, store });
    expect(result.temporary).toBe(1);
    expect(await readdir(path.join(root, 'tmp'))).toEqual(['upload-in-progress']);
  });
});
