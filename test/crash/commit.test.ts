// The server is SIGKILLed while it commits a 20,000-file version, inside the
// commit's transaction. After a restart the space is whole: either the
// version is there with every manifest chunk it names, or nothing of it is,
// and `latestVersion` says which. The same commit run again completes and the
// version reads back as pushed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { devLogin, request, useApiServers } from '../process-server.ts';
import { blobPath, inconsistencies, killInTransaction, makeDataDir, pullMismatches, randomFile, useSql, type Files, onDisk } from './helpers.ts';
import { fileList, push, sha } from '../push.ts';

const servers = useApiServers();
const sql = useSql();
const dataDir = await makeDataDir();

const FILES = 20_000;
// Files share contents ten by ten: the manifest is what a commit works on,
// and 20,000 blob files would take most of this test's time to write.
const BLOBS = 2_000;

/** Stores the blobs as an upload does (the bytes in the store, then the rows), without a PUT each. */
async function seedBlobs(workspaceId: string, files: Files) {
  const blobs = [...new Map(Object.values(files).map((bytes) => [sha(bytes), bytes]))];
  for (let i = 0; i < blobs.length; i += 500) {
    await Promise.all(
      blobs.slice(i, i + 500).map(async ([hash, bytes]) => {
        const file = blobPath(dataDir, hash);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, bytes);
      }),
    );
  }
  await sql.query(
    `WITH blob AS (INSERT INTO "Blob" ("sha256", "size") SELECT * FROM unnest($1::text[], $2::bigint[])),
     held AS (INSERT INTO "WorkspaceBlob" ("workspaceId", "sha256") SELECT $3, unnest($1::text[]))
     UPDATE "Workspace" SET "storageBytes" = "storageBytes" + (SELECT sum(s) FROM unnest($2::bigint[]) s) WHERE id = $3`,
    [blobs.map(([hash]) => hash), blobs.map(([, bytes]) => bytes.byteLength), workspaceId],
  );
}

it('leaves a whole version or none after a crash mid-commit, and the commit completes when run again', async () => {
  let server = await servers.start(onDisk(dataDir));
  const { token } = await devLogin(server.origin, 'committer');
  const space = await request(server.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'committer', name: 'Many files' } });
  const id = space.json.id as string;

  const contents = Array.from({ length: BLOBS }, (_, i) => randomFile(20 + (i % 500)));
  const all: Files = {};
  for (let i = 0; i < FILES; i++) all[`section-${i % 40}/part-${i % 7}/file-${i}.txt`] = contents[i % BLOBS];
  await seedBlobs(space.json.workspace.id, all);

  // The kill must land inside the transaction. Should a commit finish before
  // the watcher sees it, the next try commits one file fewer (a real change).
  let files: Files = all;
  let landed = false;
  let committedBefore = 0;
  for (let attempt = 0; attempt < 3 && !landed; attempt++) {
    files = Object.fromEntries(Object.entries(all).slice(attempt));
    const commit = request(server.origin, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files: fileList(files), message: `try ${attempt}` } });
    landed = await killInTransaction(server, commit);
    const outcome = await commit.then((answer) => answer.status, (error: Error) => error.message);
    if (!landed) {
      expect(outcome).toBe(200);
      committedBefore++;
    }
  }
  expect(landed, 'the server was never killed inside a commit transaction').toBe(true);

  server = await servers.start(onDisk(dataDir));
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  const [{ latestVersion }] = await sql.query(`SELECT "latestVersion" FROM "Space" WHERE id = $1`, [id]);
  expect([committedBefore, committedBefore + 1]).toContain(latestVersion);

  // The same push again: nothing to upload, and the commit completes (or finds nothing new).
  const again = await push(server.origin, token, id, files, 'after the crash');
  expect(again.plan.missing).toEqual([]);
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  const head = await request(server.origin, 'GET', `/v1/spaces/${id}`, { token });
  expect(head.json.latestVersion).toBe(again.commit.version ? latestVersion + 1 : latestVersion);

  const version = await request(server.origin, 'GET', `/v1/spaces/${id}/versions/${head.json.latestVersion}`, { token });
  const listed = version.json.files.map((f: { path: string; sha256: string; size: number }) => `${f.path} ${f.sha256} ${f.size}`).sort();
  expect(listed).toEqual(fileList(files).map((f) => `${f.path} ${f.sha256} ${f.size}`).sort());
  // Every blob's bytes were checked above; a sample of paths is read back through the API.
  const sample = Object.keys(files).filter((_, i) => i % 97 === 0);
  expect(await pullMismatches(server.origin, token, id, files, sample)).toEqual([]);
}, 60_000);
