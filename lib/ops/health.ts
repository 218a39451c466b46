// Liveness and readiness of this process, for load balancers and supervisors.
// Alive: the process answers. Ready: it can serve requests now: PostgreSQL
// answers, every migration this code expects is applied, and the node is not
// draining. Redis and the blob store are checked too, but only reported
// (lib/core/dependencies.ts): every node shares them, and a node serves most
// requests without them.
// Answers name what failed, never how to reach it (no URLs, no messages).
import { readdir } from 'node:fs/promises';
import { config } from '../config.ts';
import { query } from '../db/client.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { pingRedis } from '../core/rate-limit.ts';
import { blobStore } from '../storage/index.ts';
import { noteDependency } from '../core/dependencies.ts';

/** How long one check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2000;

let draining = false;

/** From now on this node answers /readyz with 503, so load balancers send it nothing new. */
export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}

type CheckResult = 'ok' | 'failed' | 'timed out' | 'not configured' | `${number} pending`;

export type Readiness = {
  ready: boolean;
  draining: boolean;
  checks: { database: CheckResult; migrations: CheckResult; redis: CheckResult; storage: CheckResult };
};

async function bounded(check: () => Promise<CheckResult | void>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then((result) => result ?? 'ok'), timeout]);
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

// Once every migration is seen applied it stays so for this process's code.
let migrationsApplied = false;

async function checkMigrations(): Promise<CheckResult> {
  if (migrationsApplied) return 'ok';
  const folders = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const rows = await query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
  const applied = new Set(rows.map((r) => r.migration_name));
  const pending = folders.filter((name) => !applied.has(name)).length;
  if (pending > 0) return `${pending} pending`;
  migrationsApplied = true;
  return 'ok';
}

export async function readiness(): Promise<Readiness> {
  const [database, migrations, redis, storage] = await Promise.all([
    bounded(async () => void (await query('SELECT 1'))),
    bounded(checkMigrations),
    config.redisUrl ? bounded(async () => ((await pingRedis()) ? 'ok' : 'failed')) : Promise.resolve<CheckResult>('not configured'),
    bounded(() => blobStore().check()),
  ]);
  if (redis !== 'not configured') noteDependency('redis', redis === 'ok');
  noteDependency('storage', storage === 'ok');
  const serves = database === 'ok' && migrations === 'ok';
  return { ready: serves && !draining, draining, checks: { database, migrations, redis, storage } };
}
