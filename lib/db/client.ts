// The one Prisma client of the process, over node-postgres. It connects on
// first use, so importing it (as `next build` does) needs no database.
import { PrismaPg } from '@prisma/adapter-pg';
import { config } from '../config.ts';
import { PrismaClient } from './generated/client.ts';

function createClient(): PrismaClient {
  const url = config.databaseUrl;
  const pg = new PrismaPg({ connectionString: url });
  const adapter = {
    provider: 'postgres' as const,
    adapterName: pg.adapterName,
    connect: () => {
      if (!url) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
      return pg.connect();
    },
  };
  // Tests count queries (test/query-count.ts); nothing else listens to them.
  return new PrismaClient({ adapter, log: config.nodeEnv === 'test' ? [{ emit: 'event', level: 'query' }] : [] });
}

// One client per process, also across Next's module reloads in development.
const holder = globalThis as { atriumDb?: PrismaClient };
export const db: PrismaClient = (holder.atriumDb ??= createClient());
export type { PrismaClient };
export { Prisma } from './generated/client.ts';
