// `npm run bench`: runs the benchmarks and prints their results.
//
//   npm run bench                 every benchmark, full durations
//   npm run bench -- --quick      short runs, rough numbers
//   npm run bench -- --smoke      the smallest run that shows each benchmark still works (both
//                                 servers answer alike, every step completes); no figures to keep.
//                                 `npm test` runs it after the build.
//   npm run bench -- me           only the named benchmarks
//   npm run bench -- load --seconds 15 --clients 50
//                                 the load test, shorter and with fewer clients
//
// A benchmark is one module in bench/ that exports `run(context)`; adding one
// means adding a line to `benchmarks` below and a section to docs/benchmarks.md.
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { handleStopSignals } from '../lib/db/embedded-postgres.ts';

export type BenchContext = {
  quick: boolean;
  /** --smoke: tiny sizes and one-second rounds, to show that the benchmark runs; takes precedence over quick. */
  smoke: boolean;
  /** --seconds and --clients, for the benchmarks that take them (load); undefined when not given. */
  seconds?: number;
  clients?: number;
  /**
   * Registers a step that stops something the benchmark started (a server, a
   * database). The steps run in reverse order when the benchmark ends, fails
   * or is interrupted, so nothing is left running.
   */
  onStop(step: () => Promise<void>): void;
};

type Benchmark = { run(context: BenchContext): Promise<void> };

// Loaded lazily, so that a filtered run imports only what it runs.
const benchmarks: Record<string, () => Promise<Benchmark>> = {
  me: () => import('./me.ts'),
  publish: () => import('./publish.ts'),
  load: () => import('./load.ts'),
  serve: () => import('./serve.ts'),
  db: () => import('./db.ts'),
  scale: () => import('./scale.ts'),
  rooms: () => import('./rooms.ts'),
  'rooms-cluster': () => import('./rooms.ts').then((m) => ({ run: m.runCluster })),
  faults: () => import('./faults.ts'),
};

const USAGE = 'Usage: npm run bench [-- [--quick | --smoke] [--seconds N] [--clients N] [NAME...]]';
function parseCommandLine() {
  try {
    const parsed = parseArgs({
      options: { quick: { type: 'boolean', default: false }, smoke: { type: 'boolean', default: false }, seconds: { type: 'string' }, clients: { type: 'string' } },
      allowPositionals: true,
    });
    for (const name of ['seconds', 'clients'] as const) {
      const value = parsed.values[name];
      if (value !== undefined && !/^[1-9]\d{0,5}$/.test(value)) throw new Error(`--${name} must be a whole number above 0, not "${value}".`);
    }
    return parsed;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { values, positionals } = parseCommandLine();
const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const unknown = positionals.filter((name) => !(name in benchmarks));
if (unknown.length) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${Object.keys(benchmarks).join(', ')}.\n${USAGE}`);
  process.exit(2);
}
const selected = positionals.length ? positionals : Object.keys(benchmarks);

let steps: Array<() => Promise<void>> = [];
let stopping: Promise<void> | undefined;
// Runs the registered steps once, even when a signal and the benchmark's own
// failure both ask for it. A failing step does not keep the others from running.
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const step of steps.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`bench: while stopping: ${(error as Error).message}`);
      }
    }
  })();
  return stopping;
}

let interrupted = false;
function onSignal(signal: NodeJS.Signals) {
  // One Ctrl-C can arrive twice, from the terminal and forwarded by npm: a
  // repeat must not cut the clean-up short.
  if (interrupted) return;
  interrupted = true;
  console.error(`\n${signal}: stopping the servers...`);
  void stopAll().finally(() => process.exit(128 + constants.signals[signal]));
}
handleStopSignals(onSignal);

let failed = false;
for (const name of selected) {
  console.log(`\n## ${name}${values.smoke ? ' (smoke)' : values.quick ? ' (quick)' : ''}\n`);
  steps = [];
  stopping = undefined;
  try {
    const benchmark = await benchmarks[name]();
    await benchmark.run({ quick: values.quick, smoke: values.smoke, seconds: number(values.seconds), clients: number(values.clients), onStop: (step) => steps.push(step) });
  } catch (error) {
    // After Ctrl-C the servers go away mid-run; that failure is not news.
    if (interrupted) break;
    failed = true;
    console.error(`bench ${name} failed: ${(error as Error).message}`);
  } finally {
    await stopAll();
  }
}
// While an interrupt's clean-up runs, its handler decides the exit.
if (!interrupted) process.exit(failed ? 1 : 0);
