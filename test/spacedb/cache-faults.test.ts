// A node's cache file of a space database is only a cache: a file that is
// behind while the node believes it at the head, a damaged file, and a history
// that does not replay to what it recorded are each met with a rebuild or a
// 503, never with a write on the wrong file or a 400 blamed on the caller.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { db as prisma } from '@/lib/db/client.ts';
import { closePool } from '@/lib/spacedb/database.ts';
import { cacheFile, dropCache } from '@/lib/spacedb/history.ts';
import { signIn } from '../helpers.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { quickCheck, replayed } from './files.ts';
import { dbClient, sql } from './fixtures.ts';

afterAll(() => closePool());

async function setup(handle: string) {
  const { token } = await signIn(handle);
  const space = await makeSpace(token, handle);
  const client = dbClient(space.id);
  await sql(client, token, 'CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT UNIQUE, at INTEGER)');
  return { token, spaceId: space.id as string, client };
}

const insert = (client: ReturnType<typeof dbClient>, token: string, tag: string) => sql(client, token, 'INSERT INTO w (tag, at) VALUES (?, 0)', [tag]);



describe('a cache file the node believes at the head', () => {
  it('is checked before a write: a file left behind is rebuilt, and no acknowledged row is lost', async () => {
    const { token, spaceId, client } = await setup('dbf-stale');
    await insert(client, token, 'a');
    const behind = fs.readFileSync(cacheFile(spaceId));
    await insert(client, token, 'b');
    await insert(client, token, 'c');
    // The file goes back two changes while the node still remembers it at the head.
    fs.writeFileSync(cacheFile(spaceId), behind);

    await insert(client, token, 'd');
    const rows = await sql(client, token, 'SELECT tag FROM w ORDER BY id', [], false);
    expect(rows.rows).toEqual([['a'], ['b'], ['c'], ['d']]);
    expect(quickCheck(cacheFile(spaceId))).toBe('ok');
    expect((await replayed(prisma, spaceId)).equals(fs.readFileSync(cacheFile(spaceId)))).toBe(true);
  });

  it('carries the seq of the change that last wrote it, which no caller can set', async () => {
    const { token, spaceId, client } = await setup('dbf-stamp');
    await insert(client, token, 'a');
    const set = await client.query({ token }, { sql: 'PRAGMA user_version = 1', params: [], write: true });
    expect(set.status, set.text).toBe(400);
    expect(set.json.error.message).toMatch(/PRAGMA user_version is not allowed/);
    // A write that changes nothing is no change, and leaves the stamp alone.
    await sql(client, token, "UPDATE w SET at = 0 WHERE tag = 'none'");
    const head = (await prisma.spaceDatabase.findUniqueOrThrow({ where: { spaceId } })).headSeq;
    expect(fs.readFileSync(cacheFile(spaceId)).readUInt32BE(60)).toBe(head);
    expect(await prisma.spaceDbChange.count({ where: { spaceId, pagesSha: null } })).toBe(0);
  });

  it('answers a read on a damaged file from a rebuilt one, not with a 400', async () => {
    const { token, spaceId, client } = await setup('dbf-damaged');
    await insert(client, token, 'a');
    const file = cacheFile(spaceId);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));

    const read = await client.query({ token }, { sql: 'SELECT tag FROM w', params: [], write: false });
    expect(read.status, read.text).toBe(200);
    expect(read.json.rows).toEqual([['a']]);
  });
});

describe('a damaged snapshot', () => {
  it('is passed over: the file is rebuilt from an older base and the history after it', async () => {
    const { token, spaceId, client } = await setup('dbf-snapshot');
    await sql(client, token, 'CREATE TABLE b (id INTEGER PRIMARY KEY, v BLOB)');
    await sql(client, token, 'INSERT INTO b VALUES (1, randomblob(600000))');
    // Rewriting the blob adds changes, not size, until a snapshot is due.
    for (let i = 0; i < 6 && (await prisma.spaceDbSnapshot.count({ where: { spaceId } })) === 0; i++) await sql(client, token, 'UPDATE b SET v = randomblob(600000)');
    const [snapshot] = await prisma.spaceDbSnapshot.findMany({ where: { spaceId } });
    expect(snapshot).toBeDefined();
    await insert(client, token, 'after the snapshot');
    const expected = await sql(client, token, 'SELECT hex(v) FROM b', [], false);

    // Bytes in the middle of the stored image are flipped, its header left as it was.
    const blob = path.join(config.dataDir, 'blobs', snapshot.sha256.slice(0, 2), snapshot.sha256.slice(2, 4), snapshot.sha256);
    const bytes = fs.readFileSync(blob);
    bytes.fill(0xff, 8192, 16384);
    fs.writeFileSync(blob, bytes);
    dropCache(spaceId);

    expect((await sql(client, token, 'SELECT hex(v) FROM b', [], false)).rows).toEqual(expected.rows);
    expect((await sql(client, token, 'SELECT tag FROM w', [], false)).rows).toEqual([['after the snapshot']]);
    expect(quickCheck(cacheFile(spaceId))).toBe('ok');
  });
});

describe('a history that does not replay to what it recorded', () => {
  it('is answered 503 with Retry-After in the error envelope, not served', async () => {
    const { token, spaceId, client } = await setup('dbf-history');
    await insert(client, token, 'a');
    const head = (await prisma.spaceDatabase.findUniqueOrThrow({ where: { spaceId } })).headSeq;
    await prisma.spaceDbChange.update({ where: { spaceId_seq: { spaceId, seq: head } }, data: { pagesSha: '0'.repeat(64) } });
    dropCache(spaceId);

    const read = await client.query({ token }, { sql: 'SELECT tag FROM w', params: [], write: false });
    expect(read.status, read.text).toBe(503);
    expect(read.headers.get('retry-after')).toBe('5');
    expect(read.json.error.code).toBe('unavailable');
    expect(read.json.error.message).toMatch(/could not be read back/);
    const write = await client.query({ token }, { sql: "INSERT INTO w (tag, at) VALUES ('b', 0)", params: [], write: true });
    expect(write.status, write.text).toBe(503);
    expect(await prisma.spaceDatabase.findUniqueOrThrow({ where: { spaceId } })).toMatchObject({ headSeq: head });
  });
});
