// The one Prisma client of the process, over node-postgres. It connects on
// first use, so importing it (as `next build` does) needs no database.
//
// The pool is bounded and every wait on it is too: a request that cannot get
// a connection fails after ACQUIRE_TIMEOUT_MS instead of queueing forever, and
// a transaction holds its connection for TRANSACTION_TIMEOUT_MS at most
// (longer only where a caller says so). Code inside a transaction must use the
// transaction client it is given, never `db`: a second connection taken while
// one is held deadlocks the pool once enough transactions run at once.
import { PrismaPg } from '@prisma/adapter-pg';
import { config } from '../config.ts';
import { PrismaClient } from './generated/client.ts';

/** How long a query or a transaction waits for a free connection. */
const ACQUIRE_TIMEOUT_MS = 10_000;
/** How long a transaction may run before it is rolled back. */
const TRANSACTION_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;

function createClient(): PrismaClient {
  const url = config.databaseUrl;
  const pg = new PrismaPg({
    connectionString: url,
    max: config.databasePoolSize,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  });
  const adapter = {
    provider: 'postgres' as const,
    adapterName: pg.adapterName,
    connect: () => {
      if (!url) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
      return pg.connect();
    },
  };
  const client = new PrismaClient({
    adapter,
    transactionOptions: { maxWait: ACQUIRE_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS },
    // Tests count queries (test/query-count.ts); nothing else listens to them.
    log: config.nodeEnv === 'test' ? [{ emit: 'event', level: 'query' }] : [],
  });
  return client;
}

// One client per process, also across Next's module reloads in development.
const holder = globalThis as { atriumDb?: PrismaClient };
export const db: PrismaClient = (holder.atriumDb ??= createClient());
export type { PrismaClient };
export { Prisma } from './generated/client.ts';
