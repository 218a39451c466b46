// The guest comment limit is counted in the shared store, so two instances
// behind one load balancer give a guest 20 comments in all, not 20 each.
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUEST_COMMENTS_PER_WINDOW } from '@/lib/comments/comments.ts';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';

const servers = useApiServers();
let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  const env = { REDIS_URL: process.env.REDIS_URL };
  [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
});

describe('guest comments on two instances', () => {
  it(`allows ${GUEST_COMMENTS_PER_WINDOW} guest comments from one address across both, then 429 on either`, async () => {
    const { token } = await devLogin(a.origin, 'gwen');
    const space = await request(a.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'gwen', name: 'Open' } });
    const id = space.json.id as string;
    const bytes = new Uint8Array(Buffer.from('# Hello\n'));
    const files = [{ path: 'index.md', sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength }];
    await request(a.origin, 'POST', `/v1/spaces/${id}/push/plan`, { token, body: { files } });
    expect((await request(b.origin, 'PUT', `/v1/spaces/${id}/blobs/${files[0].sha256}`, { token, raw: bytes })).status).toBe(204);
    expect((await request(a.origin, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files } })).status).toBe(200);
    expect((await request(b.origin, 'PATCH', `/v1/spaces/${id}`, { token, body: { guestComments: true } })).json.guestComments).toBe(true);

    const guest = { name: 'Gail', key: randomBytes(24).toString('base64url') };
    const statuses = [];
    for (let i = 0; i <= GUEST_COMMENTS_PER_WINDOW; i++) {
      const answer = await request(i % 2 ? b.origin : a.origin, 'POST', `/v1/spaces/${id}/comments`, { body: { path: 'index.md', body: `#${i}`, guest } });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(GUEST_COMMENTS_PER_WINDOW).fill(200), 429]);
    for (const server of [a, b]) {
      const answer = await request(server.origin, 'POST', `/v1/spaces/${id}/comments`, { body: { path: 'index.md', body: 'more', guest } });
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Signed-in people are not counted.
    expect((await request(b.origin, 'POST', `/v1/spaces/${id}/comments`, { token, body: { path: 'index.md', body: 'owner' } })).status).toBe(200);
  });
});
