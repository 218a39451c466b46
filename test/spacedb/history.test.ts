// Guest writes, the write log, the dump, and the physical history: reset,
// restore and undo.
import { afterAll, describe, expect, it } from 'vitest';
import { PATCH as patchSpaceRoute } from '@/app/v1/spaces/[id]/route.ts';
import { closePool } from '@/lib/spacedb/database.ts';
import { dropCache } from '@/lib/spacedb/history.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { dbClient, sql } from './fixtures.ts';

afterAll(() => closePool());

async function setup(handle: string) {
  const { token, user } = await signIn(handle);
  const space = await makeSpace(token, handle);
  return { token, user, space, db: dbClient(space.id) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('guest writes', () => {
  it('checks each statement with SQLite, lets a guest run one by name only, and logs every write', async () => {
    const { token, space, db } = await setup('dbg-owner');
    await sql(db, token, 'CREATE TABLE book (id INTEGER PRIMARY KEY, who TEXT, msg TEXT)');
    for (const [statement, message] of [
      ['SELECT * FROM book', /INSERT, UPDATE, DELETE or REPLACE/],
      ["INSERT INTO book (msg) VALUES ('a'); DELETE FROM book", /exactly one statement/],
      ['INSERT INTO nowhere VALUES (1)', /no such table/],
      ['DROP TABLE book', /INSERT, UPDATE, DELETE or REPLACE/],
    ] as const) {
      const refused = await db.putGuestWrites({ token }, [{ name: 'bad', sql: statement }]);
      expect(refused.status, statement).toBe(400);
      expect(refused.json.error.message).toMatch(message);
    }
    const statements = [{ name: 'sign', sql: 'INSERT INTO book (who, msg) VALUES (?, ?)' }];
    expect((await db.putGuestWrites({ token }, statements)).json).toEqual({ statements });
    expect((await db.getGuestWrites({ token })).json).toEqual({ statements });

    // Not allowed yet: the space does not let guests write.
    const before = await db.query({}, { sql: 'sign', params: ['Ann', 'hi'], write: true, guest: { name: 'Ann' } });
    expect(before.status).toBe(403);
    const patched = await call(patchSpaceRoute, 'PATCH', '', { token, params: { id: space.id }, body: { guestWrites: true } });
    expect(patched.status).toBe(200);

    const ran = await db.query({}, { sql: 'sign', params: ['Ann', 'hi'], write: true, guest: { name: 'Ann' } });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.json.rowsWritten).toBe(1);
    // Anything but a name is refused, and a guest without the guest object is signed out.
    expect((await db.query({}, { sql: 'DELETE FROM book', write: true, guest: { name: 'Eve' } })).status).toBe(400);
    expect((await db.query({}, { sql: 'sign', params: ['x', 'y'], write: true })).status).toBe(401);
    // A signed-in person without push is not a guest.
    const stranger = await signIn('dbg-stranger');
    expect((await db.query({ token: stranger.token }, { sql: 'sign', params: ['x', 'y'], write: true, guest: {} })).status).toBe(403);

    await sql(db, token, "UPDATE book SET msg = 'edited'");
    const log = (await db.writes({ token })).json.writes;
    expect(log.map((w: { name: string | null; guestName: string | null; rowsWritten: number }) => [w.name, w.guestName, w.rowsWritten])).toEqual([
      [null, null, 1],
      ['sign', 'Ann', 1],
      [null, null, 0],
    ]);
    expect(log[0].user.handle).toBe('dbg-owner');
    expect(log[0].statement).toBe("UPDATE book SET msg = 'edited'");
    expect(log[1].origin).toEqual({ kind: 'guest', city: null, country: null });
    expect(JSON.stringify(log)).not.toMatch(/address|127\.0\.0\.1/);
    expect((await db.writes({ token }, 1)).json.writes).toHaveLength(1);
    expect((await db.writes({ token: stranger.token })).status).toBe(403);
    expect((await db.getGuestWrites({ token: stranger.token })).status).toBe(403);
  });

  it('limits guest writes per address (429)', async () => {
    const { token, space, db } = await setup('dbg-limit');
    await sql(db, token, 'CREATE TABLE hits (n INTEGER)');
    await db.putGuestWrites({ token }, [{ name: 'hit', sql: 'INSERT INTO hits VALUES (1)' }]);
    await call(patchSpaceRoute, 'PATCH', '', { token, params: { id: space.id }, body: { guestWrites: true } });
    const headers = { 'x-atrium-peer': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await db.query({ headers }, { sql: 'hit', write: true, guest: {} })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
    expect((await db.query({ headers: { 'x-atrium-peer': '203.0.113.78' } }, { sql: 'hit', write: true, guest: {} })).status).toBe(200);
  });
});

describe('export', () => {
  it('dumps a database that replays into an empty space exactly', async () => {
    const { token, db, space } = await setup('dbx-source');
    await sql(
      db,
      token,
      `CREATE TABLE kinds (id INTEGER PRIMARY KEY AUTOINCREMENT, i INTEGER, r REAL, t TEXT, b BLOB, n, "odd ""name""" TEXT);
       CREATE TABLE plain (a, b);
       CREATE INDEX kinds_t ON kinds (t);
       CREATE VIEW big AS SELECT id, i FROM kinds WHERE i > 10;
       CREATE TABLE audit (what TEXT);
       CREATE TRIGGER kinds_log AFTER INSERT ON kinds BEGIN INSERT INTO audit VALUES ('added ' || NEW.id); END;
       INSERT INTO kinds (i, r, t, b, n, "odd ""name""") VALUES
         (9223372036854775807, 0.1, 'it''s "quoted"; -- not a comment', X'00FF00', NULL, 'ünïcödé ✓ 😀'),
         (-1, 1e300, '', X'', 3.5, NULL),
         (42, -0.0, 'line
break', NULL, 'text', '\\');
       DELETE FROM kinds WHERE i = -1;
       INSERT INTO plain VALUES (1, 2), (NULL, X'AB');`,
    );
    const dump = await db.export({ token });
    expect(dump.status).toBe(200);
    expect(dump.headers.get('content-disposition')).toBe(`attachment; filename="${space.id}.sql"`);
    expect(dump.text).toContain("X'00FF00'");

    const target = await setup('dbx-target');
    await sql(target.db, target.token, dump.text);
    const compare = 'SELECT * FROM kinds ORDER BY id; SELECT * FROM audit ORDER BY rowid';
    for (const query of [...compare.split('; '), 'SELECT * FROM plain ORDER BY rowid', 'SELECT * FROM big', 'SELECT seq FROM sqlite_sequence', "SELECT type, name, sql FROM sqlite_schema ORDER BY name"]) {
      const a = await sql(db, token, query, [], false);
      const b = await sql(target.db, target.token, query, [], false);
      expect(b, query).toEqual(a);
    }
    // The trigger came back after the rows, and works.
    await sql(target.db, target.token, 'INSERT INTO kinds (i) VALUES (1)');
    expect((await sql(target.db, target.token, 'SELECT what FROM audit ORDER BY rowid DESC LIMIT 1', [], false)).rows).toEqual([['added 4']]); // AUTOINCREMENT's sequence came back too
    expect((await target.db.export({ token: (await signIn('dbx-stranger')).token })).status).toBe(403);
  });
});

describe('export of text that is not plain UTF-8', () => {
  it('round-trips text holding NUL bytes or invalid UTF-8 byte for byte, as blobs do', async () => {
    const { token, db } = await setup('dbx-bytes');
    await sql(
      db,
      token,
      `CREATE TABLE weird (id INTEGER PRIMARY KEY, t TEXT, b BLOB);
       INSERT INTO weird (t, b) VALUES
         (CAST(X'6100620063' AS TEXT), X'00'),
         (CAST(X'C328FF41' AS TEXT), X'C328'),
         (CAST(X'00' AS TEXT), NULL),
         ('plain ✓', X'');`,
    );
    const dump = await db.export({ token });
    expect(dump.text).toContain("'plain ✓'");
    const target = await setup('dbx-bytes-target');
    await sql(target.db, target.token, dump.text);
    const bytes = 'SELECT id, typeof(t), hex(t), length(CAST(t AS BLOB)), typeof(b), hex(b) FROM weird ORDER BY id';
    const expected = await sql(db, token, bytes, [], false);
    expect(expected.rows[0]).toEqual([1, 'text', '6100620063', 5, 'blob', '00']);
    expect((await sql(target.db, target.token, bytes, [], false)).rows).toEqual(expected.rows);
  });
});

describe('point-in-time restore', () => {
  it('restores exactly what was, with random() and datetime() in history, a table without a primary key and schema changes; and undoes', async () => {
    const { token, db, space } = await setup('dbr-owner');
    await sql(db, token, "CREATE TABLE nokey (v, at); INSERT INTO nokey SELECT random(), datetime('now') FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c);");
    await sql(db, token, 'CREATE TABLE keyed (id INTEGER PRIMARY KEY, v BLOB); INSERT INTO keyed (v) VALUES (randomblob(3000)), (randomblob(10));');
    const snapshot = async () => ({
      nokey: (await sql(db, token, 'SELECT rowid, * FROM nokey ORDER BY rowid', [], false)).rows,
      keyed: (await sql(db, token, 'SELECT * FROM keyed ORDER BY id', [], false)).rows,
      schema: (await sql(db, token, 'SELECT name, sql FROM sqlite_schema ORDER BY name', [], false)).rows,
    });
    const first = await snapshot();
    await sleep(30);
    const t1 = Date.now();
    await sleep(30);
    // Later: rows change, a column is added, a table dropped.
    await sql(db, token, "UPDATE nokey SET v = random() WHERE rowid % 2 = 0; DELETE FROM nokey WHERE rowid > 40; ALTER TABLE keyed ADD COLUMN extra TEXT DEFAULT 'x'; INSERT INTO keyed (v) VALUES (randomblob(5));");
    await sql(db, token, 'CREATE TABLE later (a); DROP TABLE nokey;');
    const second = await snapshot().catch(() => null);
    expect(second).toBeNull(); // nokey is gone
    const secondKeyed = (await sql(db, token, 'SELECT * FROM keyed ORDER BY id', [], false)).rows;

    const restored = await db.restore({ token }, t1);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.restoredTo).toBe(t1);
    expect(restored.json.undoBookmark).toMatch(/^bm-\d+$/);
    expect(await snapshot()).toEqual(first);

    // Undo the restore: the later state returns.
    const undone = await db.restore({ token }, restored.json.undoBookmark);
    expect(undone.status, undone.text).toBe(200);
    expect((await sql(db, token, 'SELECT * FROM keyed ORDER BY id', [], false)).rows).toEqual(secondKeyed);
    expect((await sql(db, token, "SELECT count(*) FROM sqlite_schema WHERE name = 'nokey'", [], false)).rows).toEqual([[0]]);

    // And the undo can itself be undone; the rebuilt cache agrees.
    expect((await db.restore({ token }, undone.json.undoBookmark)).status).toBe(200);
    dropCache(space.id);
    expect(await snapshot()).toEqual(first);
  });

  it('reset wipes every table and answers `before`, which restores what was', async () => {
    const { token, db } = await setup('dbr-reset');
    await sql(db, token, "CREATE TABLE t (a); INSERT INTO t VALUES ('kept'); CREATE VIEW v AS SELECT a FROM t;");
    const reset = await db.reset({ token });
    expect(reset.status).toBe(200);
    expect((await db.exists({ token })).json).toEqual({ hasTables: false });
    expect((await db.overview({ token })).json.tables).toEqual([]);
    const undo = await db.restore({ token }, reset.json.before);
    expect(undo.status, undo.text).toBe(200);
    expect((await sql(db, token, 'SELECT a FROM v', [], false)).rows).toEqual([['kept']]);
    const stranger = await signIn('dbr-stranger');
    expect((await db.reset({ token: stranger.token })).status).toBe(403);
    expect((await db.restore({ token: stranger.token }, Date.now())).status).toBe(403);
    expect((await db.reset({})).status).toBe(401);
  });

  it('accepts an ISO date-time and refuses moments outside the last 30 days (400)', async () => {
    const { token, db } = await setup('dbr-window');
    await sql(db, token, 'CREATE TABLE t (a)');
    expect((await db.restore({ token }, new Date().toISOString())).status).toBe(200);
    for (const at of [Date.now() - 31 * 24 * 3600 * 1000, Date.now() + 60_000, 'yesterday', '2026-11-22 10:00', 'bm-999999']) {
      const answer = await db.restore({ token }, at);
      expect(answer.status, String(at)).toBe(400);
    }
  });
});

describe('history older than 30 days', () => {
  it('is dropped up to the newest base before the window, and restores inside the window still work', async () => {
    const { pruneHistory } = await import('@/lib/spacedb/history.ts');
    const { db: prisma, query } = await import('@/lib/db/client.ts');
    const { token, db, space } = await setup('dbr-prune');
    await sql(db, token, "CREATE TABLE t (a); INSERT INTO t VALUES ('old');");
    await sql(db, token, "INSERT INTO t VALUES ('older still in history')");
    // A restore records a whole image: a base.
    const base = await db.restore({ token }, Date.now());
    expect(base.status).toBe(200);
    await sql(db, token, "INSERT INTO t VALUES ('new')");
    // Make all but the newest change 40 days old.
    const day = 24 * 3600 * 1000;
    const head = await prisma.spaceDatabase.findUniqueOrThrow({ where: { spaceId: space.id } });
    const changes = await prisma.spaceDbChange.findMany({ where: { spaceId: space.id }, orderBy: { seq: 'asc' } });
    for (const change of changes.slice(0, -1)) {
      await prisma.spaceDbChange.update({ where: { spaceId_seq: { spaceId: space.id, seq: change.seq } }, data: { at: new Date(Date.now() - 40 * day + change.seq) } });
    }
    expect(await pruneHistory(query, space.id, Date.now())).toBe(2);
    const left = await prisma.spaceDbChange.findMany({ where: { spaceId: space.id }, orderBy: { seq: 'asc' }, select: { seq: true, imageSha: true } });
    expect(left.map((c) => c.seq)).toEqual([3, 4]);
    expect(left[0].imageSha).not.toBeNull();
    // The window's start resolves to the base, rebuilt without the dropped changes.
    dropCache(space.id);
    const restored = await db.restore({ token }, Date.now() - 29 * day);
    expect(restored.status, restored.text).toBe(200);
    expect((await sql(db, token, 'SELECT a FROM t ORDER BY rowid', [], false)).rows).toEqual([['old'], ['older still in history']]);
    expect((await db.restore({ token }, 'bm-1')).status).toBe(400);
    expect((await db.restore({ token }, restored.json.undoBookmark)).status).toBe(200);
    expect((await sql(db, token, 'SELECT count(*) FROM t', [], false)).rows).toEqual([[3]]);
    void head;
  });
});
