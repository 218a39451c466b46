import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { databaseUrl, dropDatabase, ensureDatabase } from '@/lib/db/embedded-postgres.ts';
import { migrate } from '@/lib/db/migrate.ts';
import { diffDatabaseToSchema } from '@/lib/db/schema-engine.ts';

const server = inject('databaseServerUrl');
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `atrium_mig_${process.pid}_${created.length}`;
  created.push(name);
  await dropDatabase(server, name);
  await ensureDatabase(server, name);
  return databaseUrl(server, name);
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atrium-migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const name of created) await dropDatabase(server, name);
});

describe('migrations', () => {
  it('match prisma/schema.prisma exactly (no drift)', async () => {
    const url = await freshDatabase();
    await migrate(url);
    expect(await diffDatabaseToSchema(url)).toBe('');
  });

  it('are detected as drift when the schema wants more than they create', async () => {
    const url = await freshDatabase();
    await migrate(url);
    await query(url, 'ALTER TABLE "User" DROP COLUMN "developerMode"');
    expect(await diffDatabaseToSchema(url)).toContain('developerMode');
  });

  it('are recorded as prisma migrate deploy records them, and applied once', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir({ '1_a': 'CREATE TABLE a (id int);', '2_b': 'CREATE TABLE b (id int);' });
    expect(await migrate(url, dir)).toEqual(['1_a', '2_b']);
    expect(await migrate(url, dir)).toEqual([]);
    const rows = await query(url, 'SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY started_at');
    expect(rows.map((r) => r.migration_name)).toEqual(['1_a', '2_b']);
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.every((r) => r.applied_steps_count === 1 && r.finished_at)).toBe(true);
  });

  it('leave the database as it was when a migration fails', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir({ '1_ok': 'CREATE TABLE ok (id int);', '2_bad': 'CREATE TABLE half (id int); SELECT nonsense FROM nowhere;' });
    await expect(migrate(url, dir)).rejects.toThrow(/2_bad failed/);
    const tables = await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    expect(tables.map((t) => t.tablename)).toEqual(['_prisma_migrations', 'ok']);
  });

  it('refuse to start when an applied migration was edited', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir({ '1_a': 'CREATE TABLE a (id int);' });
    await migrate(url, dir);
    await writeFile(path.join(dir, '1_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
    await expect(migrate(url, dir)).rejects.toThrow(/changed after it was applied/);
  });
});
