// The embedded PostgreSQL that `npm start` and `npm test` use without
// DATABASE_URL: first start, restart on the same data, and recovery from a
// server orphaned by a parent killed with SIGKILL.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, startEmbeddedPostgres } from '@/lib/db/embedded-postgres.ts';

const dataDir = path.resolve(`.atrium/test-embedded-${process.pid}`);

async function selectOne(serverUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows[0].one;
  } finally {
    await client.end();
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('initialises, serves on localhost with a password, stops, and starts again on the same data', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    expect(first.serverUrl).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+$/);
    expect(await selectOne(first.serverUrl)).toBe(1);
    await first.stop();
    expect(existsSync(path.join(dataDir, 'data', 'postmaster.pid'))).toBe(false);
    const second = await startEmbeddedPostgres({ dataDir });
    expect(await selectOne(second.serverUrl)).toBe(1);
    await second.stop();
  });

  it('recovers from a server orphaned by a parent killed with SIGKILL', async () => {
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('lib/db/embedded-postgres.ts'))};
      await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      parent.stdout!.on('data', (chunk) => String(chunk).includes('ready') && resolve());
      parent.on('exit', (code) => reject(new Error(`parent exited with ${code}`)));
    });
    const orphan = Number((await readFile(path.join(dataDir, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    parent.kill('SIGKILL');
    await new Promise((resolve) => parent.once('exit', resolve));
    expect(isAlive(orphan)).toBe(true);

    const server = await startEmbeddedPostgres({ dataDir });
    expect(isAlive(orphan)).toBe(false);
    expect(await selectOne(server.serverUrl)).toBe(1);
    await server.stop();
  });
});
