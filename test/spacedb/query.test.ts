// The space database's queries: reading, writing, the sandbox's refusals,
// the limits, the runaway-statement kill, and who may do what.
import { enforcePlanLimits } from '../plan-limits.ts';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { PATCH as patchSpaceRoute } from '@/app/v1/spaces/[id]/route.ts';
import { config } from '@/lib/config.ts';
import { db as prisma } from '@/lib/db/client.ts';
import { hashSecret } from '@/lib/secrets.ts';
import { closePool } from '@/lib/spacedb/database.ts';
import { splitStatements } from '@/lib/spacedb/sql.ts';
import { call, signIn } from '../helpers.ts';
import { countQueries } from '../query-count.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { dbClient, sql } from './fixtures.ts';

afterAll(() => closePool());

async function setup(handle: string, visibility: 'public' | 'members' = 'public') {
  const { token, user } = await signIn(handle);
  const space = await makeSpace(token, handle, { visibility });
  return { token, user, space, db: dbClient(space.id) };
}

describe('statements', () => {
  it('splits on semicolons outside strings, comments and trigger bodies', () => {
    const parts = splitStatements(`SELECT 'a;b'; -- c;d
      CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET n = CASE WHEN 1 THEN 2 END; DELETE FROM z; END;
      /* ; */ SELECT "q;";;`);
    expect(parts.map((p) => p.keyword)).toEqual(['SELECT', 'CREATE', 'SELECT']);
    expect(parts[1].sql).toMatch(/DELETE FROM z; END;$/);
  });
});

describe('queries', () => {
  it('reads by key in one PostgreSQL statement, which also checks the token: one revoked or expired a moment ago is refused at once', async () => {
    const { token, db } = await setup('dbq-token');
    await sql(db, token, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    await sql(db, token, "INSERT INTO t (v) VALUES ('a')");
    // The token, the space, the caller's role and the database's head: one statement.
    expect(await countQueries(() => sql(db, token, 'SELECT v FROM t WHERE id = ?', [1], false))).toBe(1);
    // And no query process: with none to be had, a read by key is still answered (lib/spacedb/bounded.ts).
    await closePool();
    const workers = config.spacedbWorkers;
    config.spacedbWorkers = 0;
    try {
      expect((await sql(db, token, 'SELECT v FROM t WHERE id = ?', [1], false)).rows).toEqual([['a']]);
    } finally {
      await closePool();
      config.spacedbWorkers = workers;
    }

    const hash = hashSecret(token);
    await prisma.token.update({ where: { hash }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await db.query({ token }, { sql: 'SELECT v FROM t WHERE id = ?', params: [1] });
    expect(expired.status).toBe(401);
    expect(expired.json.error.message).toMatch(/revoked/);

    const other = await setup('dbq-token2');
    await prisma.token.delete({ where: { hash: hashSecret(other.token) } });
    for (const write of [false, true]) {
      const revoked = await other.db.query({ token: other.token }, { sql: 'CREATE TABLE x (a)', write });
      expect(revoked.status, revoked.text).toBe(401);
    }
  });

  it('answers many reads of one space at once, on a database never written and on one with tables', async () => {
    // Enough query processes for many connections to open the file at the same moment.
    await closePool();
    const workers = config.spacedbWorkers;
    config.spacedbWorkers = 8;
    onTestFinished(async () => {
      await closePool();
      config.spacedbWorkers = workers;
    });
    const { token, db } = await setup('dbq-many');
    // Several people (one person's jobs never take every process), reading at once.
    const readers = [token, (await signIn('dbq-many-2')).token, (await signIn('dbq-many-3')).token];
    const answers = (list: { status: number; text: string }[]) => list.map((r) => `${r.status} ${r.status === 200 ? '' : r.text}`.trim());
    const fresh = await Promise.all(Array.from({ length: 12 }, (_, i) => db.overview({ token: readers[i % 3] })));
    expect(answers(fresh)).toEqual(Array(12).fill('200'));
    await sql(db, token, 'CREATE TABLE t (n INTEGER)');
    const reads = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? db.overview({ token: readers[i % 3] }) : db.query({ token: readers[i % 3] }, { sql: 'SELECT count(*) FROM t' }))));
    expect(answers(reads)).toEqual(Array(12).fill('200'));
  });

  it('runs reads of one space side by side: a long read does not hold up a short one', async () => {
    const { token, db } = await setup('dbq-side');
    await sql(db, token, 'CREATE TABLE t (n INTEGER)');
    await sql(db, token, 'INSERT INTO t VALUES (1)');
    const finished: string[] = [];
    const long = sql(db, token, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c', [], false).then(() => finished.push('long'));
    // The long one is running in a query process before the short one is asked.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Another caller (a visitor of the public space): one person's jobs never take every process.
    const short = await db.query({}, { sql: 'SELECT n FROM t' });
    finished.push('short');
    expect(short.json.rows).toEqual([[1]]);
    await long;
    expect(finished).toEqual(['short', 'long']);
  });

  it('creates, writes and reads with bound parameters, and counts rows', async () => {
    const { token, db } = await setup('dbq-basic');
    expect((await db.exists({ token })).json).toEqual({ hasTables: false });
    const created = await sql(db, token, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, data BLOB, meta TEXT, done INTEGER)');
    expect(created.rowsWritten).toBe(0);
    const inserted = await sql(db, token, 'INSERT INTO notes (body, data, meta, done) VALUES (?, ?, ?, ?)', ['hello', null, { a: [1, 2] }, true]);
    expect(inserted.rowsWritten).toBe(1);
    await sql(db, token, "INSERT INTO notes (body, data) VALUES ('two', X'00FF10')");
    const read = await sql(db, token, 'SELECT id, body, data, meta, done, 9007199254740993 AS big FROM notes ORDER BY id', [], false);
    expect(read.columns).toEqual(['id', 'body', 'data', 'meta', 'done', 'big']);
    expect(read.rows).toEqual([
      [1, 'hello', null, '{"a":[1,2]}', 1, '9007199254740993'],
      [2, 'two', { blob: Buffer.from([0, 255, 16]).toString('base64') }, null, null, '9007199254740993'],
    ]);
    expect(read.rowsRead).toBe(2);
    expect(read.truncated).toBe(false);
    expect((await db.exists({ token })).json).toEqual({ hasTables: true });
    const overview = (await db.overview({ token })).json;
    expect(overview.tables).toEqual([expect.objectContaining({ name: 'notes', type: 'table', rows: 2, size: expect.any(Number) })]);
    expect(overview.tables[0].columns.map((c: { name: string }) => c.name)).toEqual(['id', 'body', 'data', 'meta', 'done']);
    expect(overview.databaseSize).toBeGreaterThan(0);
  });

  it('runs several statements of one write as one transaction: a failing one undoes the others', async () => {
    const { token, db } = await setup('dbq-tx');
    await sql(db, token, 'CREATE TABLE t (n INTEGER UNIQUE)');
    const failed = await db.query({ token }, { sql: 'INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); INSERT INTO t VALUES (1);', write: true });
    expect(failed.status).toBe(400);
    expect(failed.json.error.message).toMatch(/UNIQUE constraint failed/);
    expect((await sql(db, token, 'SELECT count(*) AS n FROM t', [], false)).rows).toEqual([[0]]);
  });

  it('marks a result truncated past the row cap', async () => {
    const { token, db } = await setup('dbq-trunc');
    const read = await sql(db, token, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10500) SELECT x FROM c', [], false);
    expect(read.rows).toHaveLength(10_000);
    expect(read.truncated).toBe(true);
    expect(read.rowsRead).toBe(10_500);
  });
});

describe('the sandbox refuses, with 400 and a message naming what', () => {
  const cases: [string, string, RegExp][] = [
    ['attach', "ATTACH DATABASE '/etc/passwd' AS p", /ATTACH/],
    ['detach', 'DETACH DATABASE main', /DETACH/],
    ['load_extension', "SELECT load_extension('/tmp/x')", /load_extension|not authorized/],
    ['vacuum into', "VACUUM INTO '/tmp/stolen.db'", /VACUUM/],
    ['a pragma off the list', 'PRAGMA writable_schema = 1', /PRAGMA writable_schema is not allowed/],
    ['journal_mode', 'PRAGMA journal_mode = DELETE', /PRAGMA journal_mode is not allowed/],
    ['a transaction', 'BEGIN; CREATE TABLE x(a); COMMIT;', /each request runs as one transaction/],
    ['writing sqlite_schema', "UPDATE sqlite_schema SET sql = 'x'", /sqlite_schema|not authorized|may not be modified/],
    ['too many columns', `CREATE TABLE wide (${Array.from({ length: 101 }, (_, i) => `c${i}`).join(', ')})`, /too many columns/],
    ['too many parameters', `SELECT ${Array.from({ length: 101 }, () => '?').join(', ')}`, /too many SQL variables|parameters/],
    ['a value over 2 MB', 'SELECT zeroblob(3000000)', /too big|limit/i],
    ['a deep expression', `SELECT ${Array.from({ length: 150 }, () => '1').join(' + ')}`, /Expression tree is too large|depth/],
    ['a statement over 100,000 characters', `SELECT '${'x'.repeat(100_001)}'`, /100,000/],
    ['an fts3 tokenizer module not listed', 'CREATE VIRTUAL TABLE v USING dbstat', /Virtual tables of module dbstat/],
  ];
  it.each(cases)('%s', async (_name, statement, message) => {
    const { token, db } = await setup(`dbq-sb-${_name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 20).replace(/-+$/, '')}`);
    const answer = await db.query({ token }, { sql: statement, write: true });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.error.message).toMatch(message);
  });

  it('runs allowed pragmas and keeps trusted_schema off', async () => {
    const { token, db } = await setup('dbq-pragma');
    await sql(db, token, 'CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL)');
    const info = await sql(db, token, 'PRAGMA table_info(t)', [], false);
    expect(info.rows.map((r) => r[1])).toEqual(['a', 'b']);
    const trusted = await db.query({ token }, { sql: 'PRAGMA trusted_schema', write: false });
    expect(trusted.status).toBe(400);
  });

  it('refuses a statement that would write when write is false, and does not run it', async () => {
    const { token, db } = await setup('dbq-ro');
    await sql(db, token, 'CREATE TABLE t (a)');
    for (const statement of ['INSERT INTO t VALUES (1)', 'DROP TABLE t', 'CREATE TABLE u (a)', 'SELECT 1; DELETE FROM t']) {
      const answer = await db.query({ token }, { sql: statement, write: false });
      expect(answer.status, statement).toBe(400);
      expect(answer.json.error.message).toMatch(/write: true/);
    }
    expect((await db.overview({ token })).json.tables.map((t: { name: string }) => t.name)).toEqual(['t']);
  });

  it('answers 413 when the database passes its size cap', async () => {
    const { token, db } = await setup('dbq-full');
    enforcePlanLimits({ free: { databaseBytes: 64 * 1024 } });
    await sql(db, token, 'CREATE TABLE t (b BLOB)');
    const answer = await db.query({ token }, { sql: 'INSERT INTO t SELECT randomblob(10000) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20) SELECT x FROM c)', write: true });
    expect(answer.status, answer.text).toBe(413);
    expect(answer.json.error.message).toMatch(/size limit/);
  });
});

describe('a runaway statement', () => {
  it('is killed at the deadline with a clear 400 while another space answers', async () => {
    const saved = config.spacedbTimeoutMs;
    config.spacedbTimeoutMs = 1500;
    try {
      const one = await setup('dbq-runaway');
      const two = await setup('dbq-other');
      await sql(two.db, two.token, 'CREATE TABLE t (a); INSERT INTO t VALUES (42);');
      const started = Date.now();
      const runaway = one.db.query({ token: one.token }, { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', write: false });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const meanwhile = await sql(two.db, two.token, 'SELECT a FROM t', [], false);
      expect(meanwhile.rows).toEqual([[42]]);
      expect(Date.now() - started).toBeLessThan(1500);
      const answer = await runaway;
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toMatch(/ran longer than 1.5 s and was stopped/);
      // The pool replaced the killed process: the space answers again.
      expect((await sql(one.db, one.token, 'SELECT 7', [], false)).rows).toEqual([[7]]);
    } finally {
      config.spacedbTimeoutMs = saved;
    }
  });

  it('killed in a write leaves the database as it was', async () => {
    const saved = config.spacedbTimeoutMs;
    config.spacedbTimeoutMs = 1000;
    try {
      const { token, db } = await setup('dbq-runaway-write');
      await sql(db, token, 'CREATE TABLE t (a); INSERT INTO t VALUES (1);');
      const answer = await db.query({ token }, { sql: 'INSERT INTO t VALUES (2); INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;', write: true });
      expect(answer.status).toBe(400);
      expect((await sql(db, token, 'SELECT a FROM t', [], false)).rows).toEqual([[1]]);
    } finally {
      config.spacedbTimeoutMs = saved;
    }
  });
});

describe('who may query', () => {
  it('401 signed out and 403 without push for write: true; reads for viewers; 404 for a hidden space', async () => {
    const { token, space, db } = await setup('dbq-owner');
    await sql(db, token, 'CREATE TABLE t (a); INSERT INTO t VALUES (1);');
    const stranger = await signIn('dbq-stranger');
    expect((await db.query({}, { sql: 'SELECT a FROM t' })).json.rows).toEqual([[1]]);
    expect((await db.query({}, { sql: 'INSERT INTO t VALUES (2)', write: true })).status).toBe(401);
    expect((await db.query({ token: stranger.token }, { sql: 'INSERT INTO t VALUES (2)', write: true })).status).toBe(403);
    expect((await db.query({ token: stranger.token }, { sql: 'SELECT count(*) FROM t' })).json.rows).toEqual([[1]]);
    const hidden = await makeSpace(token, 'dbq-owner', { visibility: 'members' });
    expect((await dbClient(hidden.id).query({ token: stranger.token }, { sql: 'SELECT 1' })).status).toBe(404);
    expect((await dbClient(hidden.id).overview({ token: stranger.token })).status).toBe(404);
    expect((await dbClient(hidden.id).exists({})).status).toBe(404);
    // Never downgraded: a write refused stays unrun.
    expect((await sql(db, token, 'SELECT count(*) FROM t', [], false)).rows).toEqual([[1]]);
    void space;
    void patchSpaceRoute;
    void call;
  });
});
