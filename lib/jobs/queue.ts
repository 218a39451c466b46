// Background work (docs/decisions.md, "Issue 36: a maintained job queue"): pg-boss, in
// its own schema `pgboss` of Atrium's database. pg-boss creates and migrates
// that schema itself when a process starts the queue (not Prisma), so a fresh
// database, the embedded PostgreSQL and every node of a cluster need nothing
// more. Each kind of job is one queue, declared with its options and handler
// by the folder that owns the work; the process entry points start the kinds
// they run (server/jobs.ts).
import { randomBytes } from 'node:crypto';
import { PgBoss, type Job, type JobInsert, type Queue, type WorkOptions } from 'pg-boss';
import { config } from '../config.ts';
import { log } from '../log.ts';

export type { Job };

export type JobKind<Data extends object> = {
  name: string;
  queue: Omit<Queue, 'name'>;
  work: Omit<WorkOptions, 'batchSize'>;
  /** One job at a time; throwing fails the attempt (pg-boss retries it as `queue` says). */
  handle(job: Job<Data>): Promise<void>;
};

/** How often a node looks for expired jobs (a node that died mid-job leaves them active). */
const SUPERVISE_SECONDS = 15;

let boss: PgBoss | undefined;

/** The process's queue client; it connects when started. */
function jobQueue(): PgBoss {
  if (!boss) {
    // LISTEN/NOTIFY (one connection per process) wakes the workers of a queue with `notify` when
    // a job is queued, so they poll only as a backstop, for jobs that come due later or are handed back.
    boss = new PgBoss({
      connectionString: config.databaseUrl,
      schema: 'pgboss',
      max: 4,
      application_name: 'atrium-jobs',
      useListenNotify: true,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
    });
    // Connection trouble while polling; pg-boss keeps polling and recovers.
    boss.on('error', (error) => log.warn('job queue', { error: String(error) }));
  }
  return boss;
}

let started: Promise<PgBoss> | undefined;
const declared = new Map<string, Promise<void>>();

/** The process's queue client, started (which creates or migrates pg-boss's schema). */
export function startedQueue(): Promise<PgBoss> {
  started ??= jobQueue()
    .start()
    .catch((error: unknown) => {
      // The database was away: the next use starts afresh.
      started = undefined;
      boss = undefined;
      throw error;
    });
  return started;
}

/** The started queue with `kind`'s queue created (or its options brought up to date). */
async function ready(kind: JobKind<never>): Promise<PgBoss> {
  const queue = await startedQueue();
  if (!declared.has(kind.name)) {
    const declaring = (async () => {
      if (await queue.getQueue(kind.name)) await queue.updateQueue(kind.name, updatable(kind.queue));
      else await queue.createQueue(kind.name, kind.queue);
    })();
    declared.set(kind.name, declaring);
    declaring.catch(() => declared.delete(kind.name));
  }
  await declared.get(kind.name);
  return queue;
}

/** What may change on a queue that exists (pg-boss fixes the rest at creation). */
function updatable({ policy: _policy, partition: _partition, deadLetter: _deadLetter, heartbeatSeconds: _heartbeat, ...rest }: Omit<Queue, 'name'>) {
  return rest;
}

/** Works `kinds` in this process; returns the function that stops the queue (waiting for jobs in flight, within the drain's bound). */
export async function startWorkers(kinds: JobKind<never>[]): Promise<() => Promise<void>> {
  for (const kind of kinds) await (await ready(kind)).work<object>(kind.name, { ...kind.work, batchSize: 1 }, ([job]) => kind.handle(job as Job<never>));
  return stopQueue;
}

/** Stops this process's queue: workers stop fetching, jobs in flight finish, then it disconnects. */
export async function stopQueue(): Promise<void> {
  if (!started) return;
  const queue = await started.catch(() => undefined);
  started = undefined;
  boss = undefined;
  declared.clear();
  await queue?.stop({ graceful: true, timeout: config.drainTimeoutMs, close: true });
}

/** Queues `jobs` of `kind`; through `db`, inside that transaction. */
export async function sendJobs<Data extends object>(kind: JobKind<Data>, jobs: (Omit<JobInsert, 'data'> & { data: Data })[], db?: Parameters<PgBoss['insert']>[2]) {
  if (!jobs.length) return;
  const queue = await ready(kind as JobKind<never>);
  await queue.insert(kind.name, jobs, db);
}

let lastStamp = 0n;

/**
 * A job id later than every one this process made before (a UUIDv7: the
 * millisecond, then a counter). pg-boss orders jobs created in one transaction
 * by id, so ids given in order keep one key's jobs in that order.
 */
export function orderedJobId(): string {
  const now = BigInt(Date.now()) << 12n;
  lastStamp = now > lastStamp ? now : lastStamp + 1n;
  const hex = lastStamp.toString(16).padStart(15, '0');
  const random = randomBytes(8);
  random[0] = (random[0]! & 0x3f) | 0x80;
  const tail = random.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(12, 15)}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
