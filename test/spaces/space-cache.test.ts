// Anonymous visitors' space records are kept in memory while a front server
// runs (lib/spaces/space-cache.ts): asked for once, then answered without a
// statement, and forgotten on any change, made here or by another node.
import { describe, expect, it } from 'vitest';
import { PATCH as patchRoute } from '@/app/v1/spaces/[id]/route.ts';
import { db } from '@/lib/db/client.ts';
import { spaceOrigin } from '@/lib/spaces/hosts.ts';
import { listenerName } from '@/lib/spaces/space-cache.ts';
import { call, signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { countQueries } from '../query-count.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();
const get = (id: string, path = '/') => rawRequest(onPort(spaceOrigin(id)!, server.origin), 'GET', path);

async function published(handle: string) {
  const owner = await signIn(handle, 'web');
  const space = await makeSpace(owner.token, handle);
  await push(owner.token, space.id, { 'index.html': '<h1>One</h1>', 'style.css': 'h1{}' });
  return { owner, space };
}

/** Polls until `check` holds: a change made by another node arrives as a notice. */
async function eventually(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the space cache', () => {
  it('answers an anonymous visitor from memory after the first request', async () => {
    const { space } = await published('cache-hit');
    expect((await get(space.id, '/style.css')).status).toBe(200);
    const queries = await countQueries(async () => {
      for (let i = 0; i < 5; i++) expect((await get(space.id, '/style.css')).text).toBe('h1{}');
    });
    expect(queries).toBe(0);
  });

  it('serves a new version, a password and a deletion made on this node at once', async () => {
    const { owner, space } = await published('cache-own');
    expect((await get(space.id)).text).toBe('<h1>One</h1>');
    await push(owner.token, space.id, { 'index.html': '<h1>Two</h1>' });
    expect((await get(space.id)).text).toBe('<h1>Two</h1>');
    const patched = await call(patchRoute, 'PATCH', '', { token: owner.token, params: { id: space.id }, body: { password: 'a new secret' } });
    expect(patched.status).toBe(200);
    expect((await get(space.id)).status).toBe(401);
    expect((await call(patchRoute, 'PATCH', '', { token: owner.token, params: { id: space.id }, body: { password: null, visibility: 'members' } })).status).toBe(200);
    // Members-only: the site's host sends strangers to the app's origin.
    expect((await get(space.id)).status).toBe(303);
  });

  it('forgets a record another node changed, whatever statement changed it', async () => {
    const { space } = await published('cache-other');
    expect((await get(space.id)).status).toBe(200);
    // As another node (or an operator's SQL) would: straight to the database, no code of this process involved.
    await db.$executeRaw`UPDATE "Space" SET "visibility" = 'members' WHERE "id" = ${space.id}`;
    await eventually(async () => (await get(space.id)).status === 303);
    await db.$executeRaw`UPDATE "Space" SET "visibility" = 'public' WHERE "id" = ${space.id}`;
    await eventually(async () => (await get(space.id)).status === 200);
    // Gone: its host sends visitors to the app's origin, which has nothing for them either.
    await db.$executeRaw`DELETE FROM "Space" WHERE "id" = ${space.id}`;
    await eventually(async () => (await get(space.id)).status !== 200);
    expect((await get(space.id)).status).toBe(303);
  });

  it('keeps nothing while its listening connection is gone, and keeps records again once it listens anew', async () => {
    const { space } = await published('cache-drop');
    expect((await get(space.id)).status).toBe(200);
    const listener = async () => (await db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = ${listenerName()}`)[0]?.pid;
    const killed = await listener();
    expect(killed).toBeTypeOf('number');
    // As a PostgreSQL restart or a cut connection would.
    await db.$queryRaw`SELECT pg_terminate_backend(${killed})`;
    // Once the drop is noticed, every request reads the record again, so a change no notice announces is served at once.
    await eventually(async () => (await countQueries(() => get(space.id))) > 0);
    await db.$executeRaw`UPDATE "Space" SET "visibility" = 'members' WHERE "id" = ${space.id}`;
    expect((await get(space.id)).status).toBe(303);
    // It listens again by itself, and from then on remembers and forgets as before.
    await eventually(async () => ((await listener()) ?? killed) !== killed);
    await db.$executeRaw`UPDATE "Space" SET "visibility" = 'public' WHERE "id" = ${space.id}`;
    await eventually(async () => (await get(space.id)).status === 200);
    await eventually(async () => (await countQueries(() => get(space.id))) === 0);
    await db.$executeRaw`UPDATE "Space" SET "visibility" = 'members' WHERE "id" = ${space.id}`;
    await eventually(async () => (await get(space.id)).status === 303);
  });
});
