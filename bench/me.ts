// Benchmark "me": throughput and latency of GET /v1/me on the production server
// (`node scripts/start.ts`), against bench/baseline-me.ts, a bare node:http +
// pg server doing the same work, on the same database in the same run.
//
// PostgreSQL: the server at DATABASE_URL when set (in a fresh database that is
// dropped afterwards), else an embedded one under .atrium/bench/postgres.
// Results: a table on stdout and .atrium/bench/results-me.json; the servers'
// output goes to .atrium/bench/{atrium,baseline}.log.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, startServerProcess, treeCpuSeconds, workDir } from './server.ts';

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

// 32: the concurrency of the p99 target (docs/benchmarks.md).
const CONCURRENCIES = [1, 10, 32, 50];

type Measurement = { requestsPerSecond: number; p50: number; p99: number; cpuMicrosPerRequest: number | null };

// The measurement is cut into rounds that alternate between the two servers,
// so that load from elsewhere on the machine, which comes and goes, falls on
// both alike rather than on whichever ran at the time.
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({ quick, onStop }: BenchContext): Promise<void> {
  const seconds = quick ? { warmup: 1, measure: 2 } : { warmup: 3, measure: 10 };
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const database = await benchDatabase('me', onStop);
  const { base: atrium, pid: atriumPid } = await startAtriumProcess('atrium', database.url, onStop);
  const { base: baseline, pid: baselinePid } = await startServerProcess('baseline', 'bench/baseline-me.ts', onStop, { DATABASE_URL: database.url });
  const pids = new Map([[atrium, atriumPid], [baseline, baselinePid]]);
  const headers = { authorization: `Bearer ${await devToken(atrium, 'bench')}` };

  // A baseline that answers something else would measure something else.
  const [mine, theirs] = await Promise.all([atrium, baseline].map(async (base) => (await fetch(`${base}/v1/me`, { headers })).json()));
  if (!isDeepStrictEqual(mine, theirs)) {
    throw new Error(`The baseline answers differently:\n  Atrium:   ${JSON.stringify(mine)}\n  baseline: ${JSON.stringify(theirs)}`);
  }

  type Round = { requests: number; seconds: number; p50: number; p99: number; cpu: number | null };
  const measureRound = async (base: string, connections: number, duration: number): Promise<Round> => {
    const cpuBefore = treeCpuSeconds(pids.get(base)!);
    const result = checked(await autocannon({ url: `${base}/v1/me`, connections, headers, duration }), base);
    const cpuAfter = treeCpuSeconds(pids.get(base)!);
    return {
      requests: result.requests.average * duration,
      seconds: duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    };
  };
  const summary = (label: string, connections: number, rounds: Round[]): Measurement => {
    const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
    const cpu = rounds.every((r) => r.cpu !== null) ? rounds.reduce((sum, r) => sum + r.cpu!, 0) : null;
    const m = {
      requestsPerSecond: Math.round(requests / rounds.reduce((sum, r) => sum + r.seconds, 0)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      cpuMicrosPerRequest: cpu === null ? null : Math.round((cpu / requests) * 1e6),
    };
    console.log(`${label.padEnd(8)} c=${String(connections).padEnd(2)}  ${m.requestsPerSecond} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server CPU ${m.cpuMicrosPerRequest ?? '?'} µs/request`);
    return m;
  };
  const results = [];
  for (const connections of CONCURRENCIES) {
    // The warm-up loads the route, fills the connection pools and lets V8 optimise.
    for (const base of [atrium, baseline]) await measureRound(base, connections, seconds.warmup);
    const rounds = new Map<string, Round[]>([[atrium, []], [baseline, []]]);
    const each = Math.max(1, Math.round(seconds.measure / ROUNDS));
    for (let i = 0; i < ROUNDS; i++) {
      for (const base of i % 2 ? [baseline, atrium] : [atrium, baseline]) rounds.get(base)!.push(await measureRound(base, connections, each));
    }
    const a = summary('Atrium', connections, rounds.get(atrium)!);
    const b = summary('baseline', connections, rounds.get(baseline)!);
    const round = (x: number) => Math.round(x * 100) / 100;
    results.push({
      connections,
      atrium: a,
      baseline: b,
      ratio: round(b.requestsPerSecond / a.requestsPerSecond),
      // The targets: throughput at least half the baseline's, p99 at most 3 times its.
      throughput: round(a.requestsPerSecond / b.requestsPerSecond),
      p99Ratio: round(a.p99 / Math.max(1, b.p99)),
    });
  }

  console.log('\n| concurrency | Atrium req/s | baseline req/s | ratio | Atrium / baseline | Atrium p50/p99 ms | baseline p50/p99 ms | p99 ratio | server CPU µs/req, Atrium / baseline |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.connections} | ${r.atrium.requestsPerSecond} | ${r.baseline.requestsPerSecond} | ${r.ratio.toFixed(2)} | ${r.throughput.toFixed(2)}x | ${r.atrium.p50} / ${r.atrium.p99} | ${r.baseline.p50} / ${r.baseline.p99} | ${r.p99Ratio.toFixed(2)} | ${r.atrium.cpuMicrosPerRequest ?? '?'} / ${r.baseline.cpuMicrosPerRequest ?? '?'} |`,
    );
  }
  const file = path.join(workDir, 'results-me.json');
  const report = {
    benchmark: 'me',
    date: new Date().toISOString(),
    quick,
    seconds,
    machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
    database: database.kind,
    results,
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nratio = baseline req/s / Atrium req/s; p99 ratio = Atrium p99 / baseline p99 (a baseline p99 under 1 ms counts as 1). Written to ${path.relative(root, file)}.`);
}

/** The result, unless some requests failed: a benchmark of errors means nothing. */
function checked(result: AutocannonResult, base: string): AutocannonResult {
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed) {
    throw new Error(`${failed} of ${result.requests.sent} requests to ${base} failed (${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)`);
  }
  return result;
}
