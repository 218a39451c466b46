// One version of a site through the API over HTTP, as a client does it: plan,
// upload what is missing (8 at a time), commit. For tests that talk to server
// processes; test/spaces/fixtures.ts pushes in-process.
import { createHash } from 'node:crypto';
import { request } from './process-server.ts';

export type Files = Record<string, Uint8Array | string>;

const bytesOf = (content: Uint8Array | string) => (typeof content === 'string' ? Buffer.from(content) : content);
export const sha = (content: Uint8Array | string) => createHash('sha256').update(bytesOf(content)).digest('hex');
export const fileList = (files: Files) => Object.entries(files).map(([path, content]) => ({ path, sha256: sha(content), size: bytesOf(content).byteLength }));

/** Pushes `files` to `spaceId` on `origin`; throws on any unexpected answer. */
export async function push(origin: string, token: string, spaceId: string, files: Files, message?: string) {
  const list = fileList(files);
  const plan = await request(origin, 'POST', `/v1/spaces/${spaceId}/push/plan`, { token, body: { files: list } });
  if (plan.status !== 200) throw new Error(`plan on ${origin}: ${plan.status} ${plan.text}`);
  const byHash = new Map(Object.values(files).map((content) => [sha(content), bytesOf(content)]));
  const missing = [...(plan.json.missing as string[])];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let hash = missing.pop(); hash; hash = missing.pop()) {
        const put = await request(origin, 'PUT', `/v1/spaces/${spaceId}/blobs/${hash}`, { token, raw: byHash.get(hash)! });
        if (put.status !== 204) throw new Error(`blob on ${origin}: ${put.status} ${put.text}`);
      }
    }),
  );
  const commit = await request(origin, 'POST', `/v1/spaces/${spaceId}/versions`, { token, body: { files: list, message } });
  if (commit.status !== 200) throw new Error(`commit on ${origin}: ${commit.status} ${commit.text}`);
  return { plan: plan.json, commit: commit.json };
}
