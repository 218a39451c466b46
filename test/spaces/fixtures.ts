// Shared steps of the space tests: make a space, push files through the real
// plan / blob / commit routes.
import { createHash } from 'node:crypto';
import { PUT as putBlobRoute } from '@/app/v1/spaces/[id]/blobs/[sha256]/route.ts';
import { POST as planRoute } from '@/app/v1/spaces/[id]/push/plan/route.ts';
import { POST as createSpaceRoute } from '@/app/v1/spaces/route.ts';
import { POST as commitRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { call } from '../helpers.ts';

export const sha = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
export const bytes = (content: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof content === 'string' ? new Uint8Array(Buffer.from(content)) : new Uint8Array(content);

export async function makeSpace(token: string, workspace: string, extra: { name?: string; visibility?: 'public' | 'members' } = {}) {
  const { status, json } = await call(createSpaceRoute, 'POST', '/v1/spaces', { token, body: { workspace, name: extra.name ?? 'Site', visibility: extra.visibility } });
  if (status !== 200) throw new Error(`create space: ${status} ${JSON.stringify(json)}`);
  return json as { id: string; url: string; workspace: { id: string } };
}

export function fileList(files: Record<string, string | Uint8Array>, types: Record<string, string> = {}) {
  return Object.entries(files).map(([path, content]) => ({
    path,
    sha256: sha(content),
    size: bytes(content).byteLength,
    ...(types[path] ? { contentType: types[path] } : {}),
  }));
}

export async function putBlob(token: string, spaceId: string, content: string | Uint8Array, hash = sha(content)) {
  // As a client's fetch does with a byte body (a bare Request in a test sets no Content-Length).
  const body = bytes(content);
  return call(putBlobRoute, 'PUT', `/v1/spaces/${spaceId}/blobs/${hash}`, { token, rawBody: body, headers: { 'content-length': String(body.byteLength) }, params: { id: spaceId, sha256: hash } });
}

/** plan, upload what is missing, commit. */
export async function push(token: string, spaceId: string, files: Record<string, string | Uint8Array>, message?: string, types: Record<string, string> = {}) {
  const list = fileList(files, types);
  const plan = await call(planRoute, 'POST', `/v1/spaces/${spaceId}/push/plan`, { token, body: { files: list }, params: { id: spaceId } });
  if (plan.status !== 200) throw new Error(`plan: ${plan.status} ${plan.text}`);
  const byHash = new Map(Object.values(files).map((c) => [sha(c), c]));
  const missing = [...(plan.json.missing as string[])];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let hash = missing.pop(); hash; hash = missing.pop()) {
        const put = await putBlob(token, spaceId, byHash.get(hash)!, hash);
        if (put.status !== 204) throw new Error(`blob: ${put.status} ${put.text}`);
      }
    }),
  );
  const commit = await call(commitRoute, 'POST', `/v1/spaces/${spaceId}/versions`, { token, body: { files: list, message }, params: { id: spaceId } });
  if (commit.status !== 200) throw new Error(`commit: ${commit.status} ${commit.text}`);
  return { plan: plan.json, commit: commit.json };
}
