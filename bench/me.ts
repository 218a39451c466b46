// Benchmark "me": throughput and latency of GET /v1/me on the production server
// (`node scripts/start.ts`), against bench/baseline-me.ts, a bare node:http +
// pg server doing the same work, on the same database in the same run.
//
// PostgreSQL: the server at DATABASE_URL when set (in a fresh database that is
// dropped afterwards), else an embedded one under .atrium/bench/postgres.
// Results: a table on stdout and .atrium/bench/results-me.json; the servers'
// output goes to .atrium/bench/{atrium,baseline}.log.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { databaseServer, databaseUrl, dropDatabase, ensureDatabase, freePort } from '../lib/db/embedded-postgres.ts';
import type { BenchContext } from './run.ts';

type AutocannonResult = {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; sent: number };
  latency: { p50: number; p99: number };
};
type AutocannonOptions = { url: string; connections: number; duration: number; headers: Record<string, string> };
// autocannon ships no type declarations; this is the part of its API used here.
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const root = path.resolve(import.meta.dirname, '..');
const workDir = path.join(root, '.atrium/bench');
const CONCURRENCIES = [1, 10, 50];
const START_TIMEOUT = 120_000;

type Measurement = { requestsPerSecond: number; p50: number; p99: number };

export async function run({ quick, onStop }: BenchContext): Promise<void> {
  const seconds = quick ? { warmup: 1, measure: 2 } : { warmup: 3, measure: 10 };
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const external = process.env.DATABASE_URL;
  const postgresDir = path.join(workDir, 'postgres');
  const postgres = await databaseServer({ databaseUrl: external, dataDir: postgresDir, log: (msg) => console.log(msg) });
  onStop(() => postgres.stop());
  // On a shared server, a name of its own; the embedded server is ours alone.
  const name = external ? `atrium_bench_${process.pid}` : 'atrium_bench';
  await dropDatabase(postgres.serverUrl, name);
  await ensureDatabase(postgres.serverUrl, name);
  onStop(() => dropDatabase(postgres.serverUrl, name));
  const url = databaseUrl(postgres.serverUrl, name);

  // scripts/start.ts applies the migrations to the fresh database.
  const atrium = await startServer('atrium', 'scripts/start.ts', onStop, {
    DATABASE_URL: url,
    DATA_DIR: path.join(workDir, 'server'),
    DEV_AUTH: 'true',
    LOG_REQUESTS: 'false',
    NEXT_TELEMETRY_DISABLED: '1',
  });
  const baseline = await startServer('baseline', 'bench/baseline-me.ts', onStop, { DATABASE_URL: url });

  const login = await fetch(`${atrium}/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handle: 'bench', label: 'cli' }),
  });
  if (!login.ok) throw new Error(`dev-login answered ${login.status}: ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };

  // A baseline that answers something else would measure something else.
  const [mine, theirs] = await Promise.all([atrium, baseline].map(async (base) => (await fetch(`${base}/v1/me`, { headers })).json()));
  if (!isDeepStrictEqual(mine, theirs)) {
    throw new Error(`The baseline answers differently:\n  Atrium:   ${JSON.stringify(mine)}\n  baseline: ${JSON.stringify(theirs)}`);
  }

  const measure = async (label: string, base: string, connections: number): Promise<Measurement> => {
    const options = { url: `${base}/v1/me`, connections, headers };
    // The warm-up loads the route, fills the connection pools and lets V8 optimise.
    checked(await autocannon({ ...options, duration: seconds.warmup }), base);
    const result = checked(await autocannon({ ...options, duration: seconds.measure }), base);
    const m = { requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
    console.log(`${label.padEnd(8)} c=${String(connections).padEnd(2)}  ${m.requestsPerSecond} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms`);
    return m;
  };
  const results = [];
  for (const connections of CONCURRENCIES) {
    const a = await measure('Atrium', atrium, connections);
    const b = await measure('baseline', baseline, connections);
    results.push({ connections, atrium: a, baseline: b, ratio: Math.round((b.requestsPerSecond / a.requestsPerSecond) * 100) / 100 });
  }

  console.log('\n| concurrency | Atrium req/s | baseline req/s | ratio | Atrium p50/p99 ms | baseline p50/p99 ms |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.connections} | ${r.atrium.requestsPerSecond} | ${r.baseline.requestsPerSecond} | ${r.ratio.toFixed(2)} | ${r.atrium.p50} / ${r.atrium.p99} | ${r.baseline.p50} / ${r.baseline.p99} |`,
    );
  }
  const file = path.join(workDir, 'results-me.json');
  const report = {
    benchmark: 'me',
    date: new Date().toISOString(),
    quick,
    seconds,
    machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
    database: external ? 'DATABASE_URL' : 'embedded',
    results,
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nratio = baseline req/s / Atrium req/s. Written to ${path.relative(root, file)}.`);
}

/** The result, unless some requests failed: a benchmark of errors means nothing. */
function checked(result: AutocannonResult, base: string): AutocannonResult {
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed) {
    throw new Error(`${failed} of ${result.requests.sent} requests to ${base} failed (${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)`);
  }
  return result;
}

// `next start` needs a build; building here keeps it out of the start-up timeout.
function buildIfNeeded() {
  if (existsSync(path.join(root, '.next/BUILD_ID'))) return;
  console.log('no build found: running next build (once; run `npm run build` after changing the app)');
  const next = require.resolve('next/dist/bin/next');
  const build = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) throw new Error('next build failed');
}

/** Starts `node script` on a free loopback port and returns its base URL once it answers HTTP. */
async function startServer(name: string, script: string, onStop: BenchContext['onStop'], env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(workDir, `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: base },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  onStop(() => stopChild(child));

  const deadline = Date.now() + START_TIMEOUT;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`${name} exited before answering; see ${path.relative(root, logFile)}`);
    try {
      await fetch(`${base}/v1/me`, { signal: AbortSignal.timeout(5_000) });
      return base; // any HTTP answer (here 401) means it is up
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
