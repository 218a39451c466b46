// Many pushes committing at once with a small connection pool. A commit's
// transaction that reads through a second pooled connection deadlocks the
// pool: every connection is held by a transaction waiting for another one,
// and every other request (GET /v1/me) waits with them.
import { describe, expect, it, vi } from 'vitest';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { POST as commitRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { config } from '@/lib/config.ts';
import { call, signIn } from '../helpers.ts';
import { fileList, makeSpace, push, putBlob } from './fixtures.ts';

// Before any module reads the configuration (and creates the client).
vi.hoisted(() => {
  process.env.DATABASE_POOL_SIZE = '4';
});

const COMMITS = 15;

const commit = (token: string, id: string, files: unknown[]) => call(commitRoute, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files }, params: { id } });

/** Fails instead of hanging when the work does not finish in time. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Fires the commits, and GET /v1/me while they run; the time /v1/me took. */
async function commitAllWhileAskingMe(token: string, commits: (() => Promise<Awaited<ReturnType<typeof commit>>>)[]) {
  const running = commits.map((run) => run());
  const started = performance.now();
  const me = await within(5_000, 'GET /v1/me', call(meRoute, 'GET', '/v1/me', { token }));
  const meMs = performance.now() - started;
  const results = await within(8_000, 'the commits', Promise.all(running));
  return { me, meMs, results };
}

describe('concurrent commits', () => {
  it('uses the configured pool size', () => {
    expect(config.databasePoolSize).toBe(4);
  });

  it('complete on different spaces with a pool smaller than their number, and /v1/me answers meanwhile', async () => {
    const { token } = await signIn('pool-many');
    // Each space has a version already, so each commit diffs against stored chunks.
    const spaces = [];
    for (let i = 0; i < COMMITS; i++) {
      const space = await makeSpace(token, 'pool-many', { name: `Site ${i}` });
      await push(token, space.id, { 'index.html': `<h1>${i}</h1>`, 'old.txt': `old ${i}` });
      spaces.push(space);
    }
    const next = spaces.map((_, i) => ({ 'index.html': `<h1>${i} again</h1>`, 'new.txt': `new ${i}` }));
    for (const [i, space] of spaces.entries()) for (const content of Object.values(next[i])) expect((await putBlob(token, space.id, content)).status).toBe(204);

    const { me, meMs, results } = await commitAllWhileAskingMe(
      token,
      spaces.map((space, i) => () => commit(token, space.id, fileList(next[i]))),
    );
    expect(me.status).toBe(200);
    expect(meMs).toBeLessThan(2_000);
    for (const result of results) {
      expect(result.status, result.text).toBe(200);
      expect(result.json.version.number).toBe(2);
      expect(result.json.diff).toEqual({ added: ['new.txt'], changed: ['index.html'], removed: ['old.txt'], unchanged: 0 });
    }
  });

  it('complete on one space with consecutive version numbers, and /v1/me answers meanwhile', async () => {
    const { token } = await signIn('pool-one');
    const space = await makeSpace(token, 'pool-one');
    await push(token, space.id, { 'index.html': '<h1>first</h1>' });
    const versions = Array.from({ length: COMMITS }, (_, i) => ({ 'index.html': `<h1>push ${i}</h1>` }));
    for (const files of versions) expect((await putBlob(token, space.id, files['index.html'])).status).toBe(204);

    const { me, meMs, results } = await commitAllWhileAskingMe(
      token,
      versions.map((files) => () => commit(token, space.id, fileList(files))),
    );
    expect(me.status).toBe(200);
    expect(meMs).toBeLessThan(2_000);
    for (const result of results) expect(result.status, result.text).toBe(200);
    const numbers = results.map((r) => r.json.version.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: COMMITS }, (_, i) => i + 2));
    // Each commit's diff is against the version just before it: one changed file.
    for (const result of results) expect(result.json.diff).toMatchObject({ added: [], changed: ['index.html'], removed: [] });
  });
});
