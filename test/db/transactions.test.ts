// In tests the global client refuses queries made inside a transaction's
// callback: that second connection is how the pool deadlocked under load.
import { describe, expect, it } from 'vitest';
import { db, query, transaction } from '@/lib/db/client.ts';

const refused = /db\.[\w.$]+ was called inside a transaction: use the transaction client/;

describe('the global client inside a transaction', () => {
  it('refuses model queries, raw queries and nested transactions, and rolls the transaction back', async () => {
    await expect(db.$transaction(async () => db.user.count())).rejects.toThrow(refused);
    await expect(db.$transaction(async () => db.$queryRaw`SELECT 1`)).rejects.toThrow(refused);
    await expect(db.$transaction(async () => db.$transaction(async (inner) => inner.user.count()))).rejects.toThrow(refused);
    // Through a helper, after an await: still the transaction's context.
    const helper = async () => db.workspace.findMany();
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.create({ data: { id: 'usr_rolled_back', handle: 'rolled-back' } });
        await helper();
      }),
    ).rejects.toThrow(refused);
    expect(await db.user.count({ where: { id: 'usr_rolled_back' } })).toBe(0);
  });

  it('lets the transaction client work, and the global client outside, while a transaction is open', async () => {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.$transaction(async (tx) => {
      await tx.user.create({ data: { id: 'usr_inside', handle: 'inside' } });
      await open;
      return tx.user.count({ where: { id: 'usr_inside' } });
    });
    // Outside the callback: not refused, and it does not see the uncommitted row.
    expect(await db.user.count({ where: { id: 'usr_inside' } })).toBe(0);
    release();
    expect(await transaction).toBe(1);
    expect(await db.user.count({ where: { id: 'usr_inside' } })).toBe(1);
  });
});

describe('a plain transaction (transaction())', () => {
  // Connections of this process that the pool holds inside a transaction while none is running.
  const openTransactions = async () =>
    (await query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database() AND state LIKE 'idle in transaction%' AND application_name = ''`))[0].n;

  it('sends its opening statements with BEGIN, commits what its work wrote, and refuses the global client inside', async () => {
    const value = await transaction("SELECT 'opened' AS word", async (sql, opened) => {
      await sql('INSERT INTO "User" (id, handle) VALUES ($1, $2)', ['usr_plain', 'plain']);
      await expect(query('SELECT 1')).rejects.toThrow(refused);
      await expect(async () => db.user.count()).rejects.toThrow(refused);
      return opened[0].rows[0].word;
    });
    expect(value).toBe('opened');
    expect(await db.user.count({ where: { id: 'usr_plain' } })).toBe(1);
  });

  it('rolls back when its work throws, and never gives the pool a connection inside a transaction', async () => {
    await expect(
      transaction('SELECT 1', async (sql) => {
        await sql('INSERT INTO "User" (id, handle) VALUES ($1, $2)', ['usr_plain_thrown', 'plain-thrown']);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await db.user.count({ where: { id: 'usr_plain_thrown' } })).toBe(0);
    expect(await openTransactions()).toBe(0);
  });

  it('fails, rather than answering success, when its work swallowed a failed statement', async () => {
    await expect(
      transaction('SELECT 1', async (sql) => {
        await sql('INSERT INTO "User" (id, handle) VALUES ($1, $2)', ['usr_plain_swallowed', 'plain-swallowed']);
        await sql('SELECT 1/0').catch(() => {});
      }),
    ).rejects.toThrow(/rolled back/);
    expect(await db.user.count({ where: { id: 'usr_plain_swallowed' } })).toBe(0);
    expect(await openTransactions()).toBe(0);
  });

  it('takes a failed opening statement as a failure of the whole, and rolls back', async () => {
    await expect(transaction('SELECT no_such_column FROM "User"', async () => 'ran')).rejects.toThrow(/no_such_column/);
    expect(await openTransactions()).toBe(0);
  });
});
