// In tests the global client refuses queries made inside a transaction's
// callback: that second connection is how the pool deadlocked under load.
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client.ts';

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
