// What the crash tests share: a blob folder of their own, pushes over HTTP,
// killing the server while a request is inside its transaction, and the
// checks that the database and the stored bytes agree after a restart.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import { request, type ApiProcess } from '../process-server.ts';
import { sha } from '../push.ts';

export const randomFile = (size: number) => new Uint8Array(randomBytes(size));

export type Files = Record<string, Uint8Array>;

/** A DATA_DIR for this file's servers (the blobs live under it), removed afterwards. */
export async function makeDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-crash-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Where the filesystem store keeps a blob (lib/storage/filesystem.ts). */
/**
 * The server's settings for tests that look at the filesystem store's files after a crash:
 * its blobs stay on disk under `dataDir` whatever store the suite runs on (npm run test:s3).
 */
export const onDisk = (dataDir: string): Record<string, string | undefined> => ({
  DATA_DIR: dataDir,
  S3_BUCKET: undefined,
  S3_ENDPOINT: undefined,
  S3_REGION: undefined,
  S3_ACCESS_KEY_ID: undefined,
  S3_SECRET_ACCESS_KEY: undefined,
  S3_FORCE_PATH_STYLE: undefined,
});

export const blobPath = (dataDir: string, sha256: string) => path.join(dataDir, 'blobs', sha256.slice(0, 2), sha256.slice(2, 4), sha256);

/** A client of this file's database, closed afterwards. */
export function useSql() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const connected = client.connect();
  afterAll(() => client.end());
  return {
    async query<T extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<T[]> {
      await connected;
      return (await client.query<T>(text, values)).rows;
    },
  };
}
export type Sql = ReturnType<typeof useSql>;

/** Every way the database and the blob store disagree with each other or themselves; empty when they agree. */
export async function inconsistencies(sql: Sql, dataDir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const row of await sql.query(`
    SELECT v."spaceId", v.number, c->>'hash' AS hash FROM "Version" v, jsonb_array_elements(v.chunks) c
    WHERE NOT EXISTS (SELECT 1 FROM "ManifestChunk" m WHERE m.hash = c->>'hash')`)) {
    problems.push(`version ${row.spaceId}#${row.number} names a missing manifest chunk ${row.hash}`);
  }
  for (const row of await sql.query(`
    SELECT v."spaceId", v.number, v."fileCount", sum(m.entries)::int AS entries
    FROM "Version" v CROSS JOIN jsonb_array_elements(v.chunks) c JOIN "ManifestChunk" m ON m.hash = c->>'hash'
    GROUP BY v."spaceId", v.number, v."fileCount" HAVING sum(m.entries) <> v."fileCount"`)) {
    problems.push(`version ${row.spaceId}#${row.number} counts ${row.fileCount} files, its chunks hold ${row.entries}`);
  }
  for (const row of await sql.query(`
    SELECT s.id, s."latestVersion", count(v.number)::int AS versions, coalesce(max(v.number), 0) AS highest
    FROM "Space" s LEFT JOIN "Version" v ON v."spaceId" = s.id GROUP BY s.id
    HAVING s."latestVersion" <> coalesce(max(v.number), 0) OR count(v.number) <> s."latestVersion"`)) {
    problems.push(`space ${row.id} says latest version ${row.latestVersion}; it has ${row.versions} versions, the highest ${row.highest}`);
  }
  for (const row of await sql.query(`
    SELECT w.slug FROM "Workspace" w WHERE NOT EXISTS (
      SELECT 1 FROM "Membership" m WHERE m."workspaceId" = w.id AND m.status = 'accepted' AND m.role = 'owner')`)) {
    problems.push(`workspace ${row.slug} has no owner`);
  }
  for (const row of await sql.query(`
    SELECT w.slug FROM "Workspace" w WHERE w.personal AND NOT EXISTS (SELECT 1 FROM "User" u WHERE u.handle = w.slug)`)) {
    problems.push(`personal workspace ${row.slug} outlives its user`);
  }
  for (const row of await sql.query(`
    SELECT w.slug, w."storageBytes"::text AS counted, coalesce(sum(b.size), 0)::text AS held
    FROM "Workspace" w LEFT JOIN "WorkspaceBlob" wb ON wb."workspaceId" = w.id LEFT JOIN "Blob" b ON b.sha256 = wb.sha256
    GROUP BY w.id HAVING w."storageBytes" <> coalesce(sum(b.size), 0)`)) {
    problems.push(`workspace ${row.slug} counts ${row.counted} bytes stored, its blobs hold ${row.held}`);
  }
  for (const row of await sql.query(`
    SELECT w.slug, w."storageReserved"::text AS counted, coalesce(sum(r.bytes), 0)::text AS held
    FROM "Workspace" w LEFT JOIN "StorageReservation" r ON r."workspaceId" = w.id
    GROUP BY w.id HAVING w."storageReserved" <> coalesce(sum(r.bytes), 0)`)) {
    problems.push(`workspace ${row.slug} counts ${row.counted} bytes reserved, its reservations hold ${row.held}`);
  }
  // A blob a workspace holds promises its bytes: they must be in the store,
  // whole. A row no workspace holds may lack them: a store claims the row
  // before its bytes become visible, and the collector reclaims such rows.
  for (const row of await sql.query<{ sha256: string; size: string; held: boolean }>(`
    SELECT b.sha256, b.size::text, EXISTS (SELECT 1 FROM "WorkspaceBlob" wb WHERE wb.sha256 = b.sha256) AS held FROM "Blob" b`)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(blobPath(dataDir, row.sha256));
    } catch {
      if (row.held) problems.push(`blob ${row.sha256} is held but has no bytes`);
      continue;
    }
    if (String(bytes.byteLength) !== row.size || sha(bytes) !== row.sha256) problems.push(`blob ${row.sha256}: the stored bytes do not match the row`);
  }
  return problems;
}

/** Half-written uploads left in the store's temporary folder (never visible as blobs). */
export async function leftoverTemporaries(dataDir: string): Promise<number> {
  return (await readdir(path.join(dataDir, 'blobs', 'tmp')).catch(() => [])).length;
}

/**
 * SIGKILLs `server` the moment one of its connections to this file's database
 * is inside an explicit transaction (BEGIN sent: idle in it, or running a
 * statement that is not the transaction's first), unless `finished` settles
 * first. Resolves to whether the kill landed there.
 */
export async function killInTransaction(server: ApiProcess, finished: Promise<unknown>, timeoutMs = 20_000): Promise<boolean> {
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await watcher.connect();
  let done = false;
  finished.then(
    () => (done = true),
    () => (done = true),
  );
  const deadline = Date.now() + timeoutMs;
  try {
    while (!done && Date.now() < deadline) {
      const { rows } = await watcher.query(`
        SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          AND (state = 'idle in transaction' OR (state = 'active' AND xact_start < query_start))`);
      if (rows.length && !done) {
        await server.kill('SIGKILL');
        return true;
      }
    }
    return false;
  } finally {
    await watcher.end();
  }
}

/** Downloads each of `paths` of the latest version; returns those whose bytes differ from `files`. */
export async function pullMismatches(origin: string, token: string, spaceId: string, files: Files, paths = Object.keys(files)): Promise<string[]> {
  const queue = [...paths];
  const wrong: string[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
        const url = `${origin}/v1/spaces/${spaceId}/download/${p.split('/').map(encodeURIComponent).join('/')}`;
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (response.status !== 200 || sha(bytes) !== sha(files[p])) wrong.push(`${p} (${response.status})`);
      }
    }),
  );
  return wrong.sort();
}
