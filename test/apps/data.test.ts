// An app's data in space databases: the preview's tables in the app space's
// database (replaced by each build), the live data in a second space's
// database, visitors' rows as guest writes in its write log, and both spaces
// readable through the space database endpoints by the owner.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { config } from '@/lib/config.ts';
import { registry } from '@/lib/core/metrics.ts';
import { closePool } from '@/lib/spacedb/database.ts';
import { useFrontServer } from '../server.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { liveAppUrl } from '@/lib/spaces/hosts.ts';
import { World } from '../http/world.ts';
import { bookClub, writeRoom } from './helpers.ts';

const server = useFrontServer();
let w: World;

beforeAll(async () => {
  w = await new World(server.origin, 'ad').build();
}, 60_000);

async function built() {
  const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Data room' } });
  await writeRoom(room.id, bookClub());
  const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} });
  return { roomId: room.id as string, app };
}

const query = (spaceId: string, sql: string) => w.must(200, 'POST', `/v1/spaces/${spaceId}/db/query`, { as: w.people.owner, body: { sql } });

async function addRow(slug: string, table: string, values: Record<string, string>, headers: Record<string, string> = {}) {
  const body = Buffer.from(JSON.stringify({ values }));
  return rawRequest(onPort(liveAppUrl(slug), server.origin), 'POST', `/_api/tables/${table}`, {
    headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength), ...headers },
    body,
  });
}

describe('app data in space databases', () => {
  it("writes the page's tables into the preview space's database, replacing them on each build", async () => {
    const { roomId, app } = await built();
    expect(app.liveDataSpaceId).toBeNull();
    expect((await query(app.previewSpaceId, 'SELECT "Title", "Author" FROM books ORDER BY id')).rows).toEqual([['Dune', 'Herbert']]);
    await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { appId: app.id } });
    // Replaced, not added to.
    expect((await query(app.previewSpaceId, 'SELECT COUNT(*) FROM books')).rows).toEqual([[1]]);
    expect((await query(app.previewSpaceId, 'SELECT "Name" FROM sign_up')).rows).toEqual([['Ada']]);
  });

  it("keeps the live data in its own space's database: copyData's rows, and visitors' rows as guest writes in its write log", async () => {
    const { app } = await built();
    const live = await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public', copyData: true } });
    expect(live.liveDataSpaceId).toMatch(/\S/);
    expect(live.liveDataSpaceId).not.toBe(app.previewSpaceId);
    const spaceId = live.liveDataSpaceId as string;
    expect((await query(spaceId, 'SELECT "Name", "Email" FROM sign_up ORDER BY id')).rows).toEqual([['Ada', 'ada@example.com']]);

    const added = await addRow(app.slug, 'sign_up', { Name: 'Grace', Email: 'g@example.com' }, { 'cf-ipcity': 'Lyon', 'cf-ipcountry': 'FR' });
    expect(added.status).toBe(201);
    expect((await query(spaceId, 'SELECT "Name", "Email" FROM sign_up ORDER BY id')).rows).toEqual([
      ['Ada', 'ada@example.com'],
      ['Grace', 'g@example.com'],
    ]);
    // The preview's database is not the live data.
    expect((await query(app.previewSpaceId, 'SELECT COUNT(*) FROM sign_up')).rows).toEqual([[1]]);

    const { writes } = await w.must(200, 'GET', `/v1/spaces/${spaceId}/db/writes`, { as: w.people.owner });
    expect(writes[0]).toMatchObject({
      user: null,
      guestName: null,
      origin: { kind: 'guest', city: 'Lyon', country: 'FR' },
      name: 'add to sign_up',
      rowsWritten: 1,
    });
    expect(writes[0].statement).toContain('INSERT INTO "sign_up"');
    // Going live (the tables, then copyData's rows) was the owner's.
    expect(writes.slice(1).map((x: any) => [x.user?.handle, x.origin.kind])).toEqual([
      [w.people.owner.handle, 'member'],
      [w.people.owner.handle, 'member'],
    ]);

    // Members without push do not read the live data's log.
    await w.must(403, 'GET', `/v1/spaces/${spaceId}/db/writes`, { as: w.people.viewer });

    // Deleting the app deletes its live data too.
    await w.must(204, 'DELETE', `/v1/apps/${app.id}`, { as: w.people.owner });
    await w.must(404, 'GET', `/v1/spaces/${spaceId}`, { as: w.people.owner });
  });

  it("answers a live app's visitor while ten exports of a large database wait: the app reads as itself, not as a shared owner", async () => {
    await closePool();
    const workers = config.spacedbWorkers;
    config.spacedbWorkers = 2;
    onTestFinished(async () => {
      await closePool();
      config.spacedbWorkers = workers;
    });
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public', copyData: true } });
    const big = await w.must(200, 'POST', '/v1/spaces', { as: w.people.owner, body: { workspace: w.slug, name: 'Big data' } });
    const fill = 'CREATE TABLE t (b); INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT randomblob(250) FROM c;';
    await w.must(200, 'POST', `/v1/spaces/${big.id}/db/query`, { as: w.people.owner, body: { sql: fill, write: true } });

    let exported = 0;
    const exports = Array.from({ length: 10 }, () => w.must(200, 'GET', `/v1/spaces/${big.id}/db/export`, { as: w.people.owner }).then(() => (exported += 1)));
    const queued = async () => {
      const { values } = await registry.getSingleMetric('atrium_spacedb_workers')!.get();
      const [waiting] = (await registry.getSingleMetric('atrium_spacedb_queued_jobs')!.get()).values;
      return (values.find((v) => v.labels.state === 'busy')?.value ?? 0) + (waiting?.value ?? 0);
    };
    while ((await queued()) < 10) await new Promise((resolve) => setTimeout(resolve, 20));

    const rows = await rawRequest(onPort(liveAppUrl(app.slug), server.origin), 'GET', '/_api/tables/sign_up');
    expect(rows.status).toBe(200);
    // Behind them all, it would come after the tenth export's job, not the fifth.
    expect(exported).toBeLessThan(5);
    await Promise.all(exports);
  }, 120_000);

  it('names the owner-link administrator in the write log', async () => {
    const { app } = await built();
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'code' } });
    const link = await w.must(200, 'POST', `/v1/apps/${app.id}/owner-link`, { as: w.people.owner });
    const opened = await rawRequest(onPort(link.url, server.origin), 'GET', new URL(link.url).pathname + new URL(link.url).search, {});
    const set = opened.headers['set-cookie'];
    const cookie = (Array.isArray(set) ? set[0] : set)!.split(';')[0];
    expect((await addRow(app.slug, 'books', { Title: 'Emma', Author: 'Austen' }, { cookie })).status).toBe(201);
    const fresh = await w.must(200, 'GET', `/v1/apps/${app.id}`, { as: w.people.owner });
    const { writes } = await w.must(200, 'GET', `/v1/spaces/${fresh.liveDataSpaceId}/db/writes`, { as: w.people.owner });
    expect(writes[0]).toMatchObject({ guestName: 'Administrator', origin: { kind: 'guest' }, name: 'add to books' });
    // Without copyData the live tables started empty: only the administrator's row.
    expect((await query(fresh.liveDataSpaceId, 'SELECT "Title" FROM books')).rows).toEqual([['Emma']]);
  });
});
