// Changes to a workspace's members and invite links run one at a time per
// workspace: their transaction first locks the workspace row, so checks such
// as "one owner remains", "a seat is free" and "the link has a use left" see
// every change committed before them.
import { db, type Prisma } from '../db/client.ts';

export type Tx = Prisma.TransactionClient;

/** Runs `change` in a transaction that holds the lock of the workspace `where` names (if it exists). */
export function changeWorkspace<T>(where: { slug: string } | { id: string }, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      if ('slug' in where) await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE slug = ${where.slug} FOR UPDATE`;
      else await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE id = ${where.id} FOR UPDATE`;
      return change(tx);
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
}
