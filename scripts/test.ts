// `npm test`: the whole suite. Vitest (integration tests against a real
// Postgres), the storage tests again on S3, then a production build, the cluster test (several nodes of that
// build behind HAProxy) and Playwright in a real Chromium.
// With DATABASE_URL set, its server is used (each run makes fresh databases on
// it); without, embedded PostgreSQL servers under .atrium/ are started.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { databaseUrl, dropDatabase, ensureDatabase } from '../lib/db/embedded-postgres.ts';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.atrium/test-results');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
process.env.NEXT_TELEMETRY_DISABLED = '1';

function run(command: string, args: string[], options: SpawnSyncOptions = {}): number {
  console.log(`\n> ${[path.basename(command), ...args].join(' ')}`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status ?? 1;
}

type Counts = { passed: number; failed: number; skipped: number };

async function vitestCounts(file = path.join(results, 'vitest.json')): Promise<Counts> {
  const report = JSON.parse(await readFile(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
}

async function playwrightCounts(): Promise<Counts> {
  const { stats } = JSON.parse(await readFile(path.join(results, 'e2e.json'), 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

function chromiumAvailable(): boolean {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH);
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => existsSync(p));
}

await rm(results, { recursive: true, force: true });
const totals: Counts = { passed: 0, failed: 0, skipped: 0 };
const add = (c: Counts) => {
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
};

let status = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, 'vitest.json')}`]);
if (existsSync(path.join(results, 'vitest.json'))) add(await vitestCounts());

// The tests of everything that stores bytes once more with every blob in an S3
// bucket (s3rver on loopback); `npm run test:s3` runs the whole suite so.
const ON_S3 = ['test/storage', 'test/spaces/publishing.test.ts', 'test/spaces/serving.test.ts', 'test/spaces/uploads.test.ts', 'test/spacedb/history.test.ts'];
if (status === 0) {
  const report = path.join(results, 'vitest-s3.json');
  status = run(process.execPath, [path.join(root, 'scripts/test-s3.ts'), ...ON_S3, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (existsSync(report)) add(await vitestCounts(report));
}

if (status === 0) {
  if (!chromiumAvailable()) {
    if (process.env.CI) {
      console.error('No Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH.');
      process.exit(1);
    }
    console.log('No system Chromium found: installing the one Playwright manages.');
    status = run(bin('playwright'), ['install', 'chromium']);
  }
  if (status === 0) status = run(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build']);
  // The cluster test runs web nodes from the build, behind HAProxy (test/cluster/).
  if (status === 0) {
    const report = path.join(results, 'vitest-cluster.json');
    status = run(bin('vitest'), ['run', '--config', 'vitest.cluster.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
    if (existsSync(report)) add(await vitestCounts(report));
  }
  if (status === 0) {
    const env = { ...process.env };
    const dataDir = path.join(root, '.atrium/e2e');
    await rm(dataDir, { recursive: true, force: true });
    env.E2E_DATA_DIR = dataDir;
    const name = `atrium_e2e_${process.pid}`;
    if (process.env.DATABASE_URL) {
      await ensureDatabase(process.env.DATABASE_URL, name);
      env.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, name);
    }
    status = run(bin('playwright'), ['test'], { env });
    if (process.env.DATABASE_URL) await dropDatabase(process.env.DATABASE_URL, name);
    if (existsSync(path.join(results, 'e2e.json'))) add(await playwrightCounts());
  }
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status === 0 && totals.failed === 0 ? 0 : 1);
