// Benchmark "me": throughput and latency of GET /v1/me on the production server
// (`node scripts/start.ts`), against bench/baseline-me.ts, a bare node:http +
// pg server doing the same work, on the same database in the same run.
//
// PostgreSQL: the server at DATABASE_URL when set (in a fresh database that is
// dropped afterwards), else an embedded one under .atrium/bench/postgres.
// Results: a table on stdout and .atrium/bench/results-me.json; the servers'
// output goes to .atrium/bench/{atrium,baseline}.log.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { compare, type Load } from './compare.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, startServerProcess, workDir } from './server.ts';

// 32: the concurrency of the p99 target (docs/benchmarks.md).
const CONCURRENCIES = [1, 10, 32, 50];

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const seconds = smoke ? { warmup: 0, measure: 1, rounds: 1 } : quick ? { warmup: 1, measure: 2 } : { warmup: 3, measure: 10 };
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const database = await benchDatabase('me', onStop);
  const { base: atrium, pid: atriumPid } = await startAtriumProcess('atrium', database.url, onStop);
  const { base: baseline, pid: baselinePid } = await startServerProcess('baseline', 'bench/baseline-me.ts', onStop, { DATABASE_URL: database.url });
  const headers = { authorization: `Bearer ${await devToken(atrium, 'bench')}` };

  // A baseline that answers something else would measure something else.
  const [mine, theirs] = await Promise.all([atrium, baseline].map(async (base) => (await fetch(`${base}/v1/me`, { headers })).json()));
  if (!isDeepStrictEqual(mine, theirs)) {
    throw new Error(`The baseline answers differently:\n  Atrium:   ${JSON.stringify(mine)}\n  baseline: ${JSON.stringify(theirs)}`);
  }

  const load: Load = { path: '/v1/me', headers, status: 200 };
  const results = [];
  for (const connections of smoke ? [10] : CONCURRENCIES) {
    const r = await compare({ name: 'Atrium', base: atrium, pid: atriumPid }, { name: 'baseline', base: baseline, pid: baselinePid }, { atrium: load, baseline: load }, connections, seconds, 'me');
    results.push({ ...r, throughput: r.ratio, ratio: Math.round((r.baseline.requestsPerSecond / r.atrium.requestsPerSecond) * 100) / 100 });
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
    smoke,
    seconds,
    machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
    database: database.kind,
    results,
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nratio = baseline req/s / Atrium req/s; p99 ratio = Atrium p99 / baseline p99 (a baseline p99 under 1 ms counts as 1). Written to ${path.relative(root, file)}.`);
}
