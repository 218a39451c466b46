// Two API servers on one database, requests alternating between them: what a
// deployment with several instances behind a load balancer must get right.
// Nothing that matters may live in one process's memory: a push started on
// one instance finishes on the other, a limit counted on one holds on the
// other, a token revoked on one is refused by the other at once.
// REDIS_URL is passed on when the run sets it, so the same test covers
// instances that share Redis.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PENDING_PER_ADDRESS } from '@/lib/auth/cli-sign-in.ts';
import { TRIES_PER_ADDRESS } from '@/lib/spaces/unlock.ts';
import { devLogin, request, useApiServers, type ApiProcess } from './process-server.ts';

const servers = useApiServers();
let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  const env = { REDIS_URL: process.env.REDIS_URL };
  [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const files = (entries: Record<string, string>) =>
  Object.fromEntries(Object.entries(entries).map(([path, text]) => [path, new Uint8Array(Buffer.from(text))]));
const fileList = (contents: Record<string, Uint8Array>) =>
  Object.entries(contents).map(([path, bytes]) => ({ path, sha256: sha(bytes), size: bytes.byteLength }));

describe('one user on two instances', () => {
  it('signs in on A, creates on B, pushes across both and reads back on each', async () => {
    const { token, user } = await devLogin(a.origin, 'ada');
    expect((await request(b.origin, 'GET', '/v1/me', { token })).json.user.id).toBe(user.id);

    const workspace = await request(b.origin, 'POST', '/v1/workspaces', { token, body: { slug: 'ada-team', name: 'Ada team' } });
    expect(workspace.status).toBe(200);
    const created = await request(b.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'ada-team', name: 'Site' } });
    expect(created.status).toBe(200);
    const id = created.json.id as string;

    // Plan on A, blobs on B, commit on A.
    const first = files({ 'index.html': '<h1>one</h1>', 'css/site.css': 'body{}', 'notes.txt': 'a'.repeat(10_000) });
    const plan = await request(a.origin, 'POST', `/v1/spaces/${id}/push/plan`, { token, body: { files: fileList(first) } });
    expect(plan.status).toBe(200);
    expect(plan.json.missing).toHaveLength(3);
    for (const bytes of Object.values(first)) {
      expect((await request(b.origin, 'PUT', `/v1/spaces/${id}/blobs/${sha(bytes)}`, { token, raw: bytes })).status).toBe(204);
    }
    const commit = await request(a.origin, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files: fileList(first), message: 'one' } });
    expect(commit.status, commit.text).toBe(200);
    expect(commit.json.version.number).toBe(1);

    // Read on B.
    expect((await request(b.origin, 'GET', `/v1/spaces/${id}`, { token })).json.latestVersion).toBe(1);
    const version = await request(b.origin, 'GET', `/v1/spaces/${id}/versions/1`, { token });
    expect(version.json.files.map((f: { path: string; sha256: string }) => [f.path, f.sha256]).sort()).toEqual(
      fileList(first).map((f) => [f.path, f.sha256]).sort(),
    );
    for (const [path, bytes] of Object.entries(first)) {
      const download = await fetch(`${b.origin}/v1/spaces/${id}/download/${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(download.status).toBe(200);
      expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(bytes));
    }

    // The other way round: plan on B (it sees A's commit), blob on A, commit on B, read on A.
    const second = { ...first, ...files({ 'index.html': '<h1>two</h1>' }) };
    const plan2 = await request(b.origin, 'POST', `/v1/spaces/${id}/push/plan`, { token, body: { files: fileList(second) } });
    expect(plan2.json).toMatchObject({ baseVersion: 1, missing: [sha(second['index.html'])] });
    expect((await request(a.origin, 'PUT', `/v1/spaces/${id}/blobs/${sha(second['index.html'])}`, { token, raw: second['index.html'] })).status).toBe(204);
    const commit2 = await request(b.origin, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files: fileList(second) } });
    expect(commit2.json.version.number).toBe(2);
    expect(commit2.json.diff.changed).toEqual(['index.html']);
    const read = await request(a.origin, 'GET', `/v1/spaces/${id}/files/index.html`, { token });
    expect(read.json).toMatchObject({ versionNumber: 2, content: '<h1>two</h1>' });
  });

  it('invites on A, accepts on B, and each instance sees the member', async () => {
    const owner = await devLogin(a.origin, 'grace');
    const guest = await devLogin(b.origin, 'linus');
    expect((await request(a.origin, 'POST', '/v1/workspaces', { token: owner.token, body: { slug: 'grace-team', name: 'Grace team' } })).status).toBe(200);
    expect((await request(a.origin, 'POST', '/v1/workspaces/grace-team/members', { token: owner.token, body: { handle: 'linus' } })).status).toBe(204);
    expect((await request(b.origin, 'GET', '/v1/me', { token: guest.token })).json.invites).toMatchObject([{ slug: 'grace-team' }]);
    expect((await request(b.origin, 'POST', '/v1/workspaces/grace-team/accept', { token: guest.token })).status).toBe(204);
    const detail = await request(a.origin, 'GET', '/v1/workspaces/grace-team', { token: owner.token });
    expect(detail.json.members).toContainEqual(expect.objectContaining({ user: expect.objectContaining({ handle: 'linus' }), status: 'accepted' }));
    // Removed on B, gone on A.
    expect((await request(b.origin, 'DELETE', '/v1/workspaces/grace-team/members/linus', { token: owner.token })).status).toBe(204);
    expect((await request(a.origin, 'GET', '/v1/workspaces/grace-team', { token: guest.token })).status).toBe(404);
  });
});

describe('limits hold across instances', () => {
  it(`refuses the command-line sign-in after ${PENDING_PER_ADDRESS} pending ones from one address, counted on both`, async () => {
    const statuses = [];
    for (let i = 0; i <= PENDING_PER_ADDRESS; i++) {
      const answer = await request(i % 2 ? b.origin : a.origin, 'POST', '/v1/auth/cli/start', { body: { label: `try ${i}` } });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(PENDING_PER_ADDRESS).fill(200), 429]);
    // The other instance refuses too.
    const side = PENDING_PER_ADDRESS % 2 ? a : b;
    expect((await request(side.origin, 'POST', '/v1/auth/cli/start', { body: {} })).status).toBe(429);
  });

  it(`refuses the unlock after ${TRIES_PER_ADDRESS} wrong passwords, counted on both`, async () => {
    const { token } = await devLogin(a.origin, 'margaret');
    const space = await request(a.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'margaret', name: 'Locked' } });
    expect(space.status, space.text).toBe(200);
    const id = space.json.id as string;
    expect((await request(b.origin, 'PATCH', `/v1/spaces/${id}`, { token, body: { password: 'right horse' } })).json.passwordProtected).toBe(true);

    const statuses = [];
    for (let i = 0; i <= TRIES_PER_ADDRESS; i++) {
      const answer = await request(i % 2 ? b.origin : a.origin, 'POST', `/v1/spaces/${id}/unlock`, { body: { password: `wrong ${i}` } });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(TRIES_PER_ADDRESS).fill(401), 429]);
    // Even the right password waits now, on either instance.
    for (const server of [a, b]) {
      expect((await request(server.origin, 'POST', `/v1/spaces/${id}/unlock`, { body: { password: 'right horse' } })).status).toBe(429);
    }
  });

  it('refuses a token on B as soon as it is revoked on A', async () => {
    const keeper = await devLogin(a.origin, 'barbara');
    const doomed = await devLogin(b.origin, 'barbara');
    // Used on B first, so that any memory B keeps of it is warm.
    expect((await request(b.origin, 'GET', '/v1/me', { token: doomed.token })).status).toBe(200);
    const listing = await request(b.origin, 'GET', '/v1/tokens', { token: doomed.token });
    const id = listing.json.tokens.find((t: { current: boolean }) => t.current).id as string;

    expect((await request(a.origin, 'DELETE', `/v1/tokens/${id}`, { token: keeper.token })).status).toBe(204);
    expect((await request(b.origin, 'GET', '/v1/me', { token: doomed.token })).status).toBe(401);
    expect((await request(a.origin, 'GET', '/v1/me', { token: doomed.token })).status).toBe(401);
    expect((await request(b.origin, 'GET', '/v1/me', { token: keeper.token })).status).toBe(200);
  });
});
