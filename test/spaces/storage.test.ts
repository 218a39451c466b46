// Storage accounting and the plan's storage limit, through the real routes.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELETE as deleteUploadRoute } from '@/app/v1/spaces/[id]/uploads/[uploadId]/route.ts';
import { POST as uploadRoute } from '@/app/v1/spaces/[id]/uploads/route.ts';
import { PLAN_LIMITS } from '@/lib/billing/plans.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { sweepStorage } from '@/lib/storage/gc.ts';
import { blobStore } from '@/lib/storage/index.ts';
import { storageUsage } from '@/lib/storage/usage.ts';
import { BASE, call, signIn } from '../helpers.ts';
import { enforcePlanLimits } from '../plan-limits.ts';
import { bytes, makeSpace, push, putBlob, sha } from './fixtures.ts';

// Blobs of this file live apart: the collector below deletes bytes.
config.dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-storage-'));

const freeLimit = PLAN_LIMITS.free.storageBytes;

function upload(token: string, spaceId: string, name: string, content: string) {
  return call(uploadRoute, 'POST', `/v1/spaces/${spaceId}/uploads?name=${encodeURIComponent(name)}`, {
    token,
    rawBody: bytes(content),
    headers: { 'content-length': String(Buffer.byteLength(content)) },
    params: { id: spaceId },
  });
}

const used = async (workspaceId: string) => (await storageUsage(workspaceId)).used;

/** Makes every blob look unused for two hours, past the collector's grace period. */
async function age() {
  await db.$executeRaw`UPDATE "WorkspaceBlob" SET "lastUsedAt" = now() - interval '2 hours'`;
  await db.$executeRaw`UPDATE "Blob" SET "lastUsedAt" = now() - interval '2 hours'`;
}

describe('storage accounting', () => {
  it('counts the distinct blobs a workspace holds: once across its spaces, again in another workspace', async () => {
    const { token } = await signIn('acct-a');
    const other = await signIn('acct-b');
    const one = await makeSpace(token, 'acct-a');
    const two = await makeSpace(token, 'acct-a', { name: 'Two' });
    const ws = one.workspace.id;
    expect(await used(ws)).toBe(0);
    await push(token, one.id, { 'index.html': 'acct <html>', 'a.css': 'acct css' }); // 11 + 8
    expect(await used(ws)).toBe(19);
    await push(token, two.id, { 'index.html': 'acct <html>', 'b.js': 'acct js' }); // shares index.html, + 7
    expect(await used(ws)).toBe(26);
    expect((await upload(token, two.id, 'notes.txt', 'acct notes')).status).toBe(200); // + 10
    expect((await upload(token, one.id, 'copy.txt', 'acct notes')).status).toBe(200); // same bytes: no change
    expect(await used(ws)).toBe(36);
    const theirs = await makeSpace(other.token, 'acct-b');
    await push(other.token, theirs.id, { 'index.html': 'acct <html>' });
    expect(await used(theirs.workspace.id)).toBe(11);
    expect(await used(ws)).toBe(36);
  });

  it('frees bytes once nothing references them: a deleted upload, a deleted space, after the collector runs', async () => {
    const { token } = await signIn('acct-c');
    const site = await makeSpace(token, 'acct-c');
    const files = await makeSpace(token, 'acct-c', { name: 'Files' });
    const ws = site.workspace.id;
    await push(token, site.id, { 'index.html': 'freed page', 'shared.txt': 'freed shared' }); // 10 + 12
    const made = await upload(token, files.id, 'shared.txt', 'freed shared');
    const alone = await upload(token, files.id, 'alone.bin', 'freed alone upload'); // + 18
    expect(await used(ws)).toBe(40);
    expect((await call(deleteUploadRoute, 'DELETE', '', { token, params: { id: files.id, uploadId: alone.json.id } })).status).toBe(204);
    expect((await call(deleteUploadRoute, 'DELETE', '', { token, params: { id: files.id, uploadId: made.json.id } })).status).toBe(204);
    // Still held until the collector finds nothing using it.
    expect(await used(ws)).toBe(40);
    await age();
    await sweepStorage();
    // shared.txt is still in the site's version.
    expect(await used(ws)).toBe(22);
    expect(await blobStore().get(sha('freed alone upload'))).toBeNull();
    expect(await new Response(await blobStore().get(sha('freed shared'))).text()).toBe('freed shared');
    // A deleted space's versions go with it (its rows cascade); its bytes then go too.
    await db.space.delete({ where: { id: site.id } });
    await age();
    await sweepStorage();
    expect(await used(ws)).toBe(0);
    expect(await blobStore().get(sha('freed page'))).toBeNull();
    expect(await db.blob.count({ where: { sha256: { in: [sha('freed page'), sha('freed shared'), sha('freed alone upload')] } } })).toBe(0);
  });
});

describe('the plan storage limit', () => {
  it('refuses an upload that would pass it with 403 naming the limit, the plan and the plan that lifts it; nothing is stored', async () => {
    const { token } = await signIn('limit-a');
    const space = await makeSpace(token, 'limit-a');
    const ws = space.workspace.id;
    enforcePlanLimits();
    // A free workspace that holds all but 100 bytes of its 1 GiB.
    await db.$executeRaw`UPDATE "Workspace" SET "storageBytes" = ${BigInt(freeLimit! - 100)} WHERE "id" = ${ws}`;
    const refused = await upload(token, space.id, 'big.bin', 'x'.repeat(101));
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('forbidden');
    expect(refused.json.error.message).toBe(
      `This workspace has used 1024 MB of its Free plan's 1 GB of storage; this file of 101 bytes does not fit. Delete uploads or spaces to free room. Upgrade to Pro for 50 GB of storage: http://localhost:3000/w/limit-a/billing`,
    );
    expect(await db.upload.count({ where: { spaceId: space.id } })).toBe(0);
    expect(await blobStore().get(sha('x'.repeat(101)))).toBeNull();
    expect(await storageUsage(ws)).toMatchObject({ used: freeLimit! - 100, reserved: 0 });
    expect((await upload(token, space.id, 'fits.bin', 'x'.repeat(100))).status).toBe(200);
    expect(await used(ws)).toBe(freeLimit);
  });

  it('refuses a blob PUT past it with 403 before reading (Content-Length) or once hashed (no Content-Length); nothing is stored', async () => {
    const { token } = await signIn('limit-b');
    const space = await makeSpace(token, 'limit-b');
    const ws = space.workspace.id;
    enforcePlanLimits({ free: { storageBytes: 50 } });
    await push(token, space.id, { 'index.html': 'y'.repeat(40) });
    const put = await putBlob(token, space.id, 'z'.repeat(11));
    expect(put.status).toBe(403);
    expect(put.json.error.message).toContain("of its Free plan's 50 bytes of storage");
    const chunked = await call((await import('@/app/v1/spaces/[id]/blobs/[sha256]/route.ts')).PUT, 'PUT', '', {
      token,
      rawBody: bytes('w'.repeat(11)),
      params: { id: space.id, sha256: sha('w'.repeat(11)) },
    });
    expect(chunked.status).toBe(403);
    for (const content of ['z'.repeat(11), 'w'.repeat(11)]) {
      expect(await blobStore().get(sha(content))).toBeNull();
      expect(await db.workspaceBlob.count({ where: { workspaceId: ws, sha256: sha(content) } })).toBe(0);
    }
    expect(await storageUsage(ws)).toMatchObject({ used: 40, reserved: 0 });
    // A blob the workspace already holds costs nothing more.
    expect((await putBlob(token, space.id, 'y'.repeat(40))).status).toBe(204);
    expect((await putBlob(token, space.id, 'z'.repeat(10))).status).toBe(204);
    expect(await used(ws)).toBe(50);
  });

  it('lets one of two uploads racing for the last room through and refuses the other', async () => {
    const { token } = await signIn('limit-c');
    const space = await makeSpace(token, 'limit-c');
    const ws = space.workspace.id;
    enforcePlanLimits({ free: { storageBytes: 1000 } });
    for (let round = 0; round < 5; round++) {
      const before = await used(ws);
      enforcePlanLimits({ free: { storageBytes: before + 150 } });
      const results = await Promise.all([upload(token, space.id, 'a', `${round}a`.padEnd(100, '.')), upload(token, space.id, 'b', `${round}b`.padEnd(100, '.'))]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
      expect(await storageUsage(ws)).toMatchObject({ used: before + 100, reserved: 0 });
    }
  });

  it('lets one of two blob PUTs racing for the last room through after their bytes (one statement each) and refuses the other', async () => {
    const { token: one } = await signIn('limit-r');
    const space = await makeSpace(one, 'limit-r');
    const ws = space.workspace.id;
    // Two tokens of one person, each having PUT once: both take the one-statement path.
    const { token: two } = await signIn('limit-r');
    enforcePlanLimits({ free: { storageBytes: 1000 } });
    expect((await putBlob(one, space.id, 'warm one')).status).toBe(204);
    expect((await putBlob(two, space.id, 'warm two')).status).toBe(204);
    for (let round = 0; round < 5; round++) {
      const before = await used(ws);
      enforcePlanLimits({ free: { storageBytes: before + 150 } });
      const results = await Promise.all([putBlob(one, space.id, `${round}a`.padEnd(100, '.')), putBlob(two, space.id, `${round}b`.padEnd(100, '.'))]);
      expect(results.map((r) => r.status).sort()).toEqual([204, 403]);
      expect(results.find((r) => r.status === 403)!.json.error.message).toContain('does not fit');
      expect(await storageUsage(ws)).toMatchObject({ used: before + 100, reserved: 0 });
      // The refused one PUTs first again (it was forgotten), and is refused before its bytes are read.
      enforcePlanLimits({ free: { storageBytes: 1000 } });
    }
  });

  it('holds the room of an upload in flight: a second one that would not fit with it is refused before it finishes', async () => {
    const { token } = await signIn('limit-d');
    const space = await makeSpace(token, 'limit-d');
    const ws = space.workspace.id;
    enforcePlanLimits({ free: { storageBytes: 150 } });
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('s'.repeat(50)));
        finish = () => {
          controller.enqueue(bytes('s'.repeat(50)));
          controller.close();
        };
      },
    });
    const slow = uploadRoute(
      new Request(`${BASE}/v1/spaces/${space.id}/uploads?name=slow.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-length': '100' },
        body,
        duplex: 'half',
      } as RequestInit),
      { params: Promise.resolve({ id: space.id }) },
    );
    await expect.poll(async () => (await storageUsage(ws)).reserved).toBe(100);
    const second = await upload(token, space.id, 'second.bin', 't'.repeat(100));
    expect(second.status).toBe(403);
    expect(second.json.error.message).toContain('(and 100 bytes being uploaded)');
    finish();
    expect((await slow).status).toBe(200);
    expect(await storageUsage(ws)).toMatchObject({ used: 100, reserved: 0 });
    expect((await upload(token, space.id, 'third.bin', 't'.repeat(50))).status).toBe(200);
  });

  it('gives the room back when an upload fails', async () => {
    const { token } = await signIn('limit-e');
    const space = await makeSpace(token, 'limit-e');
    enforcePlanLimits({ free: { storageBytes: 1000 } });
    const short = await call(uploadRoute, 'POST', `/v1/spaces/${space.id}/uploads?name=short.txt`, { token, rawBody: bytes('short'), headers: { 'content-length': '900' }, params: { id: space.id } });
    expect(short.status).toBe(400);
    expect(await storageUsage(space.workspace.id)).toMatchObject({ used: 0, reserved: 0 });
  });
});
