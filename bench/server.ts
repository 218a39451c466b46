// What the benchmarks share: a database of their own, the production build,
// and servers started as child processes that are always stopped.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseServer, databaseUrl, dropDatabase, ensureDatabase, freePort } from '../lib/db/embedded-postgres.ts';
import type { BenchContext } from './run.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const workDir = path.join(root, '.atrium/bench');
const START_TIMEOUT = 120_000;

/**
 * A fresh database for one benchmark: on the server at DATABASE_URL (a name
 * of its own, dropped afterwards), else on an embedded server under .atrium/bench.
 */
export async function benchDatabase(name: string, onStop: BenchContext['onStop']): Promise<{ url: string; kind: 'DATABASE_URL' | 'embedded' }> {
  const external = process.env.DATABASE_URL;
  const postgres = await databaseServer({ databaseUrl: external, dataDir: path.join(workDir, 'postgres'), log: (msg) => console.log(msg) });
  onStop(() => postgres.stop());
  const database = external ? `atrium_bench_${name}_${process.pid}` : `atrium_bench_${name}`;
  await dropDatabase(postgres.serverUrl, database);
  await ensureDatabase(postgres.serverUrl, database);
  onStop(() => dropDatabase(postgres.serverUrl, database));
  return { url: databaseUrl(postgres.serverUrl, database), kind: external ? 'DATABASE_URL' : 'embedded' };
}

// `next start` needs a build; building here keeps it out of the start-up timeout.
export function buildIfNeeded() {
  if (existsSync(path.join(root, '.next/BUILD_ID'))) return;
  console.log('no build found: running next build (once; run `npm run build` after changing the app)');
  const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const build = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) throw new Error('next build failed');
}

/** The production server (`node scripts/start.ts`) on `databaseUrl`, with development sign-in. */
export async function startAtrium(name: string, databaseUrl: string, onStop: BenchContext['onStop'], env: Record<string, string> = {}) {
  return (await startAtriumProcess(name, databaseUrl, onStop, env)).base;
}

/** startAtrium, also giving the pid of `node scripts/start.ts` (the server process is its child). */
export function startAtriumProcess(name: string, databaseUrl: string, onStop: BenchContext['onStop'], env: Record<string, string | undefined> = {}) {
  return startServerProcess(name, 'scripts/start.ts', onStop, {
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(workDir, `${name}-data`),
    DEV_AUTH: 'true',
    LOG_REQUESTS: 'false',
    NEXT_TELEMETRY_DISABLED: '1',
    ...env,
  });
}

/** An API token for `handle` (created on first use) through development sign-in. */
export async function devToken(base: string, handle: string): Promise<string> {
  const login = await fetch(`${base}/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handle, label: 'cli' }),
  });
  if (!login.ok) throw new Error(`dev-login answered ${login.status}: ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** Starts `node script` on a free loopback port and returns its base URL once it answers HTTP. */
export async function startServer(name: string, script: string, onStop: BenchContext['onStop'], env: Record<string, string>): Promise<string> {
  return (await startServerProcess(name, script, onStop, env)).base;
}

/**
 * startServer, also giving the child's pid. An `env` value of undefined
 * removes that variable (e.g. REDIS_URL for a node that must run alone);
 * `portVariable` names the variable the script reads its port from; `nodeFlags` go to node before the script.
 */
export async function startServerProcess(
  name: string,
  script: string,
  onStop: BenchContext['onStop'],
  env: Record<string, string | undefined>,
  portVariable = 'PORT',
  nodeFlags: string[] = [],
): Promise<{ base: string; pid: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(workDir, `${name}.log`);
  const log = openSync(logFile, 'w');
  const merged: Record<string, string | undefined> = { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), [portVariable]: String(port), PUBLIC_URL: base };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const child = spawn(process.execPath, [...nodeFlags, script], {
    cwd: root,
    env: merged as NodeJS.ProcessEnv,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  onStop(() => stopChild(child));

  const deadline = Date.now() + START_TIMEOUT;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`${name} exited before answering; see ${path.relative(root, logFile)}`);
    try {
      await fetch(`${base}/v1/me`, { signal: AbortSignal.timeout(5_000) });
      return { base, pid: child.pid! }; // any HTTP answer (here 401) means it is up
    } catch {
      await sleep(250);
    }
  }
  throw new Error(`${name} did not answer within ${START_TIMEOUT / 1000} s; see ${path.relative(root, logFile)}`);
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

// scripts/start.ts stops Next (and its embedded Postgres, unused here) on SIGTERM.
async function stopChild(child: ChildProcess) {
  if (exited(child)) return;
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exit;
}

/** CPU seconds (user + system) used so far by `pid` and its descendants; null where /proc is missing. */
export function treeCpuSeconds(pid: number): number | null {
  try {
    const parents = new Map<number, number>();
    const cpu = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // The command name is in parentheses and may hold spaces; ppid is the 2nd field after it, utime and stime the 12th and 13th.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(Number(entry), Number(fields[1]));
        cpu.set(Number(entry), Number(fields[11]) + Number(fields[12]));
      } catch {
        // gone meanwhile
      }
    }
    const tree = [pid];
    for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
    // Clock ticks: 100 a second on Linux.
    return tree.reduce((sum, p) => sum + (cpu.get(p) ?? 0), 0) / 100;
  } catch {
    return null;
  }
}

/**
 * A GET with a Host of our choosing (fetch does not let one set it): a site is
 * served on its own host (sp-<id>.localhost:<port>), which the benchmark's
 * requests name while they go to the server's address.
 */
export function hostRequest(base: string, host: string, pathname: string, headers: Record<string, string> = {}, agent?: Agent) {
  const url = new URL(base);
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path: pathname, headers: { host, ...headers }, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
