// The server is SIGKILLed while several large blob uploads are streaming in.
// After a restart, no blob is recorded whose bytes are not all stored, the
// uploads that had finished are still known, and the same push run again
// uploads just what is missing, commits, and reads back byte for byte.
import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import { devLogin, request, useApiServers } from '../process-server.ts';
import { inconsistencies, makeDataDir, pullMismatches, randomFile, useSql, type Files, onDisk } from './helpers.ts';
import { fileList, push, sha } from '../push.ts';

const servers = useApiServers();
const sql = useSql();
const dataDir = await makeDataDir();

const CHUNK = 64 * 1024;

/**
 * PUTs `bytes` slowly, 64 KB at a time, so that the upload is still streaming
 * when the server dies. `halfway` resolves once `after` bytes are written.
 */
function slowPut(origin: string, path: string, token: string, bytes: Uint8Array, after: number) {
  let reached: () => void;
  const halfway = new Promise<void>((resolve) => (reached = resolve));
  const done = new Promise<{ status: number } | { error: string }>((resolve) => {
    const url = new URL(origin + path);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-length': bytes.byteLength } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('error', (error) => resolve({ error: error.message }));
    void (async () => {
      for (let offset = 0; offset < bytes.byteLength && !req.destroyed; offset += CHUNK) {
        if (!req.write(bytes.subarray(offset, offset + CHUNK))) await new Promise((r) => req.once('drain', r));
        if (offset + CHUNK >= after) reached();
        await new Promise((r) => setTimeout(r, 10));
      }
      req.end();
    })();
  });
  return { halfway, done };
}

it('keeps no partial blob after a crash mid-upload, and the push completes when run again', async () => {
  let server = await servers.start(onDisk(dataDir));
  const { token } = await devLogin(server.origin, 'uploader');
  const space = await request(server.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'uploader', name: 'Big files' } });
  const id = space.json.id as string;

  const small: Files = { 'a.txt': randomFile(1000), 'b/b.bin': randomFile(200_000), 'c.bin': randomFile(3) };
  const large: Files = Object.fromEntries([1, 2, 3, 4].map((i) => [`large/${i}.bin`, randomFile(8 * 1024 * 1024)]));
  const files = { ...small, ...large };

  const plan = await request(server.origin, 'POST', `/v1/spaces/${id}/push/plan`, { token, body: { files: fileList(files) } });
  expect(plan.json.missing).toHaveLength(7);
  for (const bytes of Object.values(small)) {
    expect((await request(server.origin, 'PUT', `/v1/spaces/${id}/blobs/${sha(bytes)}`, { token, raw: bytes })).status).toBe(204);
  }
  // Four large uploads at once; the kill comes when each has sent at least 1 MB of its 8.
  const uploads = Object.values(large).map((bytes) => slowPut(server.origin, `/v1/spaces/${id}/blobs/${sha(bytes)}`, token, bytes, 1024 * 1024));
  await Promise.all(uploads.map((u) => u.halfway));
  await server.kill('SIGKILL');
  const outcomes = await Promise.all(uploads.map((u) => u.done));
  expect(outcomes.every((o) => 'error' in o), JSON.stringify(outcomes)).toBe(true);

  server = await servers.start(onDisk(dataDir));
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  const recorded = (await sql.query<{ sha256: string }>(`SELECT sha256 FROM "WorkspaceBlob"`)).map((r) => r.sha256).sort();
  expect(recorded).toEqual(Object.values(small).map(sha).sort());

  // The same push again: only the interrupted uploads are asked for.
  const again = await push(server.origin, token, id, files, 'after the crash');
  expect(again.plan.missing.sort()).toEqual(Object.values(large).map(sha).sort());
  expect(again.commit.version.number).toBe(1);
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  expect(await pullMismatches(server.origin, token, id, files)).toEqual([]);
}, 30_000);
