// The job queue worked from a test's own process, so that a test decides when
// background work happens: `workDue` does one round of what the workers would
// (every job of a kind that is due now, each completed or failed as pg-boss's
// workers do) and answers how many it took.
import { afterAll } from 'vitest';
import { startedQueue, stopQueue, type Job, type JobKind } from '@/lib/jobs/queue.ts';

// The file's database is dropped after it: the queue's connections go first.
afterAll(stopQueue);

export async function workDue<Data extends object>(kind: JobKind<Data>): Promise<number> {
  const queue = await startedQueue();
  if (!(await queue.getQueue(kind.name))) return 0;
  const jobs = await queue.fetch<Data>(kind.name, { batchSize: 100 });
  await Promise.all(
    jobs.map(async (job: Job<Data>) => {
      try {
        await kind.handle(job);
        await queue.complete(kind.name, job);
      } catch (error) {
        await queue.fail(kind.name, job, { message: String(error) });
      }
    }),
  );
  return jobs.length;
}

/** Makes the queued job `id` of `kind` due now, as if its start time had come. */
export async function makeDue(kind: JobKind<never>, id: string): Promise<void> {
  await (await startedQueue()).update(kind.name, undefined, { id, startAfter: new Date() });
}
