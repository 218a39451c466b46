// Each test file gets a fresh, migrated database of its own, copied from the
// template, so files never see each other's rows and run in parallel.
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { databaseUrl, dropDatabase, ensureDatabase } from '../lib/db/embedded-postgres.ts';

const server = inject('databaseServerUrl');
const name = `atrium_test_${process.pid}_${randomBytes(4).toString('hex')}`;
await ensureDatabase(server, name, inject('templateDatabase'));
process.env.DATABASE_URL = databaseUrl(server, name);

afterAll(async () => {
  const holder = globalThis as { atriumDb?: { $disconnect(): Promise<void> }; atriumDbPool?: { end(): Promise<void> } };
  await holder.atriumDb?.$disconnect();
  await holder.atriumDbPool?.end();
  delete holder.atriumDb;
  delete holder.atriumDbPool;
  await dropDatabase(server, name);
});
