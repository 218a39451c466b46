// `npm test`: the whole suite. The Markdown linter over README.md and docs/
// (.markdownlint-cli2.jsonc), Vitest (integration tests against a real
// Postgres), the storage tests again on S3, then a production build, the cluster test (several nodes of that
// build behind HAProxy), Playwright in a real Chromium, and every benchmark in its smoke mode.
// Every stage runs whose prerequisites passed, and the closing lines account for each
// (scripts/test-stages.ts).
// With DATABASE_URL set, its server is used (each run makes fresh databases on
// it); without, embedded PostgreSQL servers under .atrium/ are started.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { databaseUrl, dropDatabase, ensureDatabase } from '../lib/db/embedded-postgres.ts';
import { type Counts, runStages, type StageRun, summarize } from './test-stages.ts';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.atrium/test-results');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
process.env.NEXT_TELEMETRY_DISABLED = '1';

function run(command: string, args: string[], options: SpawnSyncOptions = {}): number {
  console.log(`\n> ${[path.basename(command), ...args].join(' ')}`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status ?? 1;
}

async function vitestCounts(file: string): Promise<Counts | undefined> {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(await readFile(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
}

async function playwrightCounts(file: string): Promise<Counts | undefined> {
  if (!existsSync(file)) return undefined;
  const { stats } = JSON.parse(await readFile(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

function chromiumAvailable(): boolean {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH);
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => existsSync(p));
}

// Vitest with its JSON report in results/<name>.json, for the counts.
async function vitest(name: string, command: string, args: string[]): Promise<StageRun> {
  const report = path.join(results, `${name}.json`);
  const exitCode = run(command, [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  return { exitCode, counts: await vitestCounts(report) };
}

// The tests of everything that stores bytes once more with every blob in an S3
// bucket (s3rver on loopback); `npm run test:s3` runs the whole suite so.
const ON_S3 = ['test/storage', 'test/spaces/publishing.test.ts', 'test/spaces/serving.test.ts', 'test/spaces/compressed-copies.test.ts', 'test/spaces/uploads.test.ts', 'test/spacedb/history.test.ts'];

// All of `npm run bench`'s list but rooms-cluster, which needs Redis and measures what rooms does on two nodes.
const SMOKE_BENCHMARKS = ['me', 'serve', 'db', 'publish', 'rooms', 'load', 'scale', 'faults'];

async function playwright(): Promise<StageRun | { notRun: string }> {
  if (!chromiumAvailable()) {
    if (process.env.CI) return { notRun: 'no Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH' };
    console.log('No system Chromium found: installing the one Playwright manages.');
    const exitCode = run(bin('playwright'), ['install', 'chromium']);
    if (exitCode !== 0) return { exitCode };
  }
  const env = { ...process.env };
  const dataDir = path.join(root, '.atrium/e2e');
  await rm(dataDir, { recursive: true, force: true });
  env.E2E_DATA_DIR = dataDir;
  const name = `atrium_e2e_${process.pid}`;
  if (process.env.DATABASE_URL) {
    await ensureDatabase(process.env.DATABASE_URL, name);
    env.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, name);
  }
  const exitCode = run(bin('playwright'), ['test'], { env });
  if (process.env.DATABASE_URL) await dropDatabase(process.env.DATABASE_URL, name);
  return { exitCode, counts: await playwrightCounts(path.join(results, 'e2e.json')) };
}

await rm(results, { recursive: true, force: true });
const outcome = await runStages([
  // A few seconds: a broken table or link in the docs is found before the long stages.
  { name: 'markdown', run: async () => ({ exitCode: run(bin('markdownlint-cli2'), []) }) },
  { name: 'vitest', run: () => vitest('vitest', bin('vitest'), ['run']) },
  { name: 'vitest on S3', run: () => vitest('vitest-s3', process.execPath, [path.join(root, 'scripts/test-s3.ts'), ...ON_S3]) },
  { name: 'build', run: async () => ({ exitCode: run(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build']) }) },
  // The cluster test runs web nodes from the build, behind HAProxy (test/cluster/).
  { name: 'cluster', needs: ['build'], run: () => vitest('vitest-cluster', bin('vitest'), ['run', '--config', 'vitest.cluster.config.ts']) },
  { name: 'playwright', needs: ['build'], run: playwright },
  // Every benchmark in its smoke mode, so that none can rot unseen: each starts the built server
  // (and its bare baseline) and checks that the two answer alike; about two minutes in all.
  {
    name: 'benchmarks',
    needs: ['build'],
    run: async () => ({ exitCode: run(process.execPath, [path.join(root, 'bench/run.ts'), '--smoke', ...SMOKE_BENCHMARKS]) }),
  },
]);
const { lines, exitCode } = summarize(outcome);
console.log(lines.join('\n'));
process.exit(exitCode);
