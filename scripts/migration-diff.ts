// Prints the SQL that the committed migrations lack to match prisma/schema.prisma,
// or writes it as a new migration with --create <name>. Works without Prisma's
// native engine: a scratch database is migrated and compared with the schema
// by Prisma's schema engine compiled to WebAssembly.
//   npm run db:diff                      show what is missing
//   npm run db:diff -- --create <name>   write prisma/migrations/<timestamp>_<name>/migration.sql
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.ts';
import { databaseServer, databaseUrl, dropDatabase, ensureDatabase } from '../lib/db/embedded-postgres.ts';
import { MIGRATIONS_DIR, migrate } from '../lib/db/migrate.ts';
import { diffDatabaseToSchema } from '../lib/db/schema-engine.ts';

const { values } = parseArgs({ options: { create: { type: 'string' } } });
if (values.create !== undefined && !/^[a-z0-9_]+$/.test(values.create)) {
  console.error('--create takes a name of lowercase letters, digits and underscores');
  process.exit(2);
}
const config = loadConfig(process.env);
const server = await databaseServer({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'tools-postgres') });
const scratch = `atrium_diff_${process.pid}`;
try {
  await ensureDatabase(server.serverUrl, scratch);
  const url = databaseUrl(server.serverUrl, scratch);
  await migrate(url);
  const sql = await diffDatabaseToSchema(url);
  if (!sql) {
    console.log('The migrations match prisma/schema.prisma.');
  } else if (values.create) {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${values.create}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'migration.sql'), sql);
    console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  } else {
    process.stdout.write(sql);
  }
} finally {
  await dropDatabase(server.serverUrl, scratch);
  await server.stop();
}
