// Side by side under load: the same request sent to Atrium and to a bare
// baseline with autocannon, in rounds that alternate between the two so that
// load from elsewhere on the machine, which comes and goes, falls on both
// alike rather than on whichever ran at the time. Used by the `me`, `serve`
// and `db` benchmarks.
import { createRequire } from 'node:module';
import { treeCpuSeconds } from './server.ts';

type AutocannonRequest = {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Changes each request before it is sent (e.g. a parameter), returning it. */
  setupRequest?: (request: { headers: Record<string, string>; body?: string }) => { headers: Record<string, string>; body?: string };
};
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests cycled through in order, per connection (to vary a parameter). */
  requests?: AutocannonRequest[];
};
type AutocannonResult = {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; sent: number };
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
};
// autocannon ships no type declarations; this is the part of its API used here.
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

/** A server under test: its base URL and the pid whose process tree's CPU time is counted. */
export type Target = { name: string; base: string; pid: number };
/** What every request of a measurement sends, and the one status it must answer. */
export type Load = Omit<AutocannonOptions, 'url' | 'connections' | 'duration'> & { path: string; status: number };

export type Measurement = { requestsPerSecond: number; p50: number; p99: number; cpuMicrosPerRequest: number | null };
export type Comparison = {
  connections: number;
  atrium: Measurement;
  baseline: Measurement;
  /** Atrium req/s over the baseline's. */
  ratio: number;
  p99Ratio: number;
  /** Every request Atrium answered, the warm-up's included (e.g. to count the views it recorded). */
  atriumAnswered: number;
};

const ROUNDS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round2 = (x: number) => Math.round(x * 100) / 100;

type Round = { requests: number; seconds: number; p50: number; p99: number; cpu: number | null };

async function measureRound(target: Target, load: Load, connections: number, duration: number): Promise<Round> {
  const { path, status, ...options } = load;
  const cpuBefore = treeCpuSeconds(target.pid);
  const result = await autocannon({ ...options, url: `${target.base}${path}`, connections, duration });
  const cpuAfter = treeCpuSeconds(target.pid);
  // A benchmark of errors means nothing: every answer must be the expected one.
  const expected = result.statusCodeStats[String(status)]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  if (result.errors || result.timeouts || expected !== answered) {
    const statuses = Object.entries(result.statusCodeStats).map(([code, s]) => `${code}: ${s.count}`).join(', ');
    throw new Error(`${target.name} ${path}: ${answered - expected} of ${answered} answers were not ${status} (${statuses}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    requests: expected,
    seconds: duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

function summary(rounds: Round[]): Measurement {
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const cpu = rounds.every((r) => r.cpu !== null) ? rounds.reduce((sum, r) => sum + r.cpu!, 0) : null;
  return {
    requestsPerSecond: Math.round(requests / rounds.reduce((sum, r) => sum + r.seconds, 0)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuMicrosPerRequest: cpu === null ? null : Math.round((cpu / requests) * 1e6),
  };
}

/**
 * One load at one concurrency: a warm-up of each server (discarded: it loads
 * the code, fills the pools and lets V8 optimise), then `seconds.measure`
 * cut into five alternating rounds of at least a second (`seconds.rounds` of them when given:
 * one for --smoke). `loads` gives each server its own request
 * (the same work addressed its own way, e.g. a site's Host).
 */
export async function compare(
  atrium: Target,
  baseline: Target,
  loads: { atrium: Load; baseline: Load },
  connections: number,
  seconds: { warmup: number; measure: number; rounds?: number },
  label: string,
): Promise<Comparison> {
  // --smoke has no warm-up (0 s): it checks that the bench runs, not what it measures.
  const warmup = seconds.warmup ? await measureRound(atrium, loads.atrium, connections, seconds.warmup) : { requests: 0 };
  if (seconds.warmup) await measureRound(baseline, loads.baseline, connections, seconds.warmup);
  const rounds = { atrium: [] as Round[], baseline: [] as Round[] };
  const count = seconds.rounds ?? ROUNDS;
  const each = Math.max(1, Math.round(seconds.measure / count));
  for (let i = 0; i < count; i++) {
    const order = i % 2 ? (['baseline', 'atrium'] as const) : (['atrium', 'baseline'] as const);
    for (const side of order) rounds[side].push(await measureRound(side === 'atrium' ? atrium : baseline, loads[side], connections, each));
  }
  const a = summary(rounds.atrium);
  const b = summary(rounds.baseline);
  for (const [name, m] of [['Atrium', a], ['baseline', b]] as const) {
    console.log(`${label} ${name.padEnd(8)} c=${String(connections).padEnd(2)}  ${m.requestsPerSecond} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server CPU ${m.cpuMicrosPerRequest ?? '?'} µs/request`);
  }
  const atriumAnswered = warmup.requests + rounds.atrium.reduce((sum, r) => sum + r.requests, 0);
  return { connections, atrium: a, baseline: b, ratio: round2(a.requestsPerSecond / b.requestsPerSecond), p99Ratio: round2(a.p99 / Math.max(1, b.p99)), atriumAnswered };
}

/** The Markdown rows of comparisons: Atrium / baseline throughput first, as the targets are stated. */
export function comparisonTable(rows: Array<Comparison & { what: string }>): string {
  const lines = [
    '| what | connections | Atrium req/s | baseline req/s | Atrium / baseline | Atrium p50/p99 ms | baseline p50/p99 ms | server CPU µs/req, Atrium / baseline |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.what} | ${r.connections} | ${r.atrium.requestsPerSecond} | ${r.baseline.requestsPerSecond} | **${r.ratio.toFixed(2)}x** | ${r.atrium.p50} / ${r.atrium.p99} | ${r.baseline.p50} / ${r.baseline.p99} | ${r.atrium.cpuMicrosPerRequest ?? '?'} / ${r.baseline.cpuMicrosPerRequest ?? '?'} |`,
    );
  }
  return lines.join('\n');
}
