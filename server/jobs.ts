// The background work of a server process: the job queue's workers
// (lib/jobs) for every kind of job (webhook deliveries, notification mail), and the relay that queues webhook
// deliveries written by changes. Every node runs them; pg-boss hands each job
// to one.
import { startWorkers } from '../lib/jobs/queue.ts';
import { notificationMails } from '../lib/notifications/notifications.ts';
import { startWebhookRelay, webhookDeliveries } from '../lib/webhooks/dispatch.ts';

export const JOB_KINDS = [webhookDeliveries, notificationMails];

/** Starts them; returns the function that stops them, once the jobs in flight have finished. */
export async function startBackgroundWork(): Promise<() => Promise<void>> {
  const stopWorkers = await startWorkers(JOB_KINDS);
  const stopRelay = startWebhookRelay();
  return async () => {
    await stopRelay();
    await stopWorkers();
  };
}
