// Sends queued webhook deliveries through the job queue (lib/jobs). A change
// writes its deliveries as rows in its own transaction (lib/audit/webhook-events.ts,
// an outbox); the relay below moves rows that have no job yet into the
// queue, one job per attempt, the row naming its job, in one transaction: a
// crash on either side of it loses nothing and queues nothing twice.
//
// One queue, `webhook-delivery`, with pg-boss's `key_strict_fifo` policy keyed
// by endpoint: an endpoint gets one delivery at a time, oldest first, and a
// slow one holds only its own. A node works MAX_SENDING at once, at most
// PER_WORKSPACE of one workspace (`localGroupConcurrency`). A node that dies
// mid-send leaves its job active until LEASE_SECONDS pass; another node's
// supervisor then hands it back and it is sent again (at least once:
// receivers deduplicate on the event id). Failures are retried by the
// schedule the docs promise: the attempt's row gets its next time and the
// relay queues a job that starts then.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fromPrisma } from 'pg-boss';
import { db, isDatabaseUnavailable, noteDatabaseUnavailable } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { orderedJobId, sendJobs, type Job, type JobKind } from '../jobs/queue.ts';
import { log } from '../log.ts';
import { decryptSecret, signatureHeaders } from './secret.ts';
import { resolveTarget, type Target } from './target.ts';

/** Seconds before each retry; after the last one fails the delivery is marked failed (about 25 hours in all). */
export const RETRY_AFTER_SECONDS = [60, 300, 1800, 7200, 18_000, 36_000, 28_800];
/** How long a job may stay active before it is taken to have died with its node. */
export const LEASE_SECONDS = 30;
const TIMEOUT_MS = 10_000;
/** Bytes of an answer read at most; the first RESPONSE_KEPT characters are kept for the log. */
const RESPONSE_READ_BYTES = 64 * 1024;
const RESPONSE_KEPT = 1024;
/** Deliveries a node sends at once, in all, and for one workspace. */
export const MAX_SENDING = 16;
export const PER_WORKSPACE = 4;
const RELAY_MS = 1000;
const RELAY_BATCH = 500;

type Claimed = { id: string; eventId: string; event: string; payload: unknown; attempts: number; url: string; secretEncrypted: string };

type Outcome = { status: number | null; durationMs: number; body: string | null; error: string | null };

/** POSTs `body` to the checked address of `target`, bounded in time and in what is read back; never follows a redirect. */
function post(target: Target, body: string, headers: Record<string, string>): Promise<Outcome> {
  const started = performance.now();
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const done = (outcome: Omit<Outcome, 'durationMs'>) => resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    const req = send(
      {
        host: target.url.hostname.replace(/^\[|\]$/g, ''),
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // Connect to the address that was checked, whatever the name resolves to now.
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
          else callback(null, target.address, target.family);
        },
      },
      (response: IncomingMessage) => {
        const parts: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_READ_BYTES) parts.push(chunk);
          read += chunk.byteLength;
          if (read >= RESPONSE_READ_BYTES) response.destroy();
        });
        const finish = () => done({ status: response.statusCode ?? null, body: Buffer.concat(parts).toString('utf8').slice(0, RESPONSE_KEPT), error: null });
        response.once('end', finish);
        response.once('close', finish);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    req.once('close', () => clearTimeout(timer));
    req.once('error', (error) => done({ status: null, body: null, error: error.message.slice(0, 300) }));
    req.end(body);
  });
}

async function attempt(claim: Claimed): Promise<Outcome> {
  let target: Target;
  try {
    target = await resolveTarget(claim.url);
  } catch (error) {
    return { status: null, durationMs: 0, body: null, error: error instanceof ApiError ? error.message : String(error) };
  }
  const body = JSON.stringify(claim.payload);
  const secret = await decryptSecret(claim.secretEncrypted);
  return post(target, body, {
    'content-type': 'application/json',
    'user-agent': 'Atrium-Webhooks/1',
    'atrium-event': claim.event,
    'atrium-event-id': claim.eventId,
    'atrium-delivery': claim.id,
    ...signatureHeaders(secret, claim.eventId, body, Math.floor(Date.now() / 1000)),
  });
}

/** One attempt of a delivery, if its row still names this job and its endpoint is active. */
async function deliver(job: Job<{ delivery: string }>): Promise<void> {
  const [claim] = await db.$queryRaw<Claimed[]>`
    UPDATE "WebhookDelivery" d SET "attempts" = d."attempts" + 1, "lastAttemptAt" = now()
    FROM "WebhookEndpoint" e
    WHERE d."id" = ${job.data.delivery} AND d."jobId" = ${job.id}::uuid AND d."status" = 'pending' AND e."id" = d."endpointId" AND e."active"
    RETURNING d."id", d."eventId", d."event", d."payload", d."attempts", e."url", e."secretEncrypted"`;
  if (!claim) {
    // Paused since it was queued: the relay queues it again once the endpoint is resumed.
    await db.$executeRaw`UPDATE "WebhookDelivery" SET "jobId" = NULL WHERE "id" = ${job.data.delivery} AND "jobId" = ${job.id}::uuid AND "status" = 'pending'`;
    return;
  }
  const outcome = await attempt(claim);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const retryIn = RETRY_AFTER_SECONDS[claim.attempts - 1];
  const status = delivered ? 'delivered' : retryIn === undefined ? 'failed' : 'pending';
  // A retry leaves the row without a job, due later: the relay queues its next attempt.
  await db.$executeRaw`
    UPDATE "WebhookDelivery" SET "status" = ${status}, "responseStatus" = ${outcome.status}, "durationMs" = ${outcome.durationMs},
      "responseBody" = ${outcome.body}, "error" = ${outcome.error}, "jobId" = NULL,
      "nextAttemptAt" = now() + make_interval(secs => ${status === 'pending' ? retryIn : 0})
    WHERE "id" = ${claim.id} AND "jobId" = ${job.id}::uuid`;
  if (!delivered) log.info('webhook delivery failed', { delivery: claim.id, event: claim.event, attempt: claim.attempts, status: outcome.status, error: outcome.error, final: status === 'failed' });
}

export const webhookDeliveries: JobKind<{ delivery: string }> = {
  name: 'webhook-delivery',
  queue: {
    policy: 'key_strict_fifo',
    expireInSeconds: LEASE_SECONDS,
    // Retries of the job itself: after a node died mid-send, or when the outcome could not be
    // recorded (the database was away). Failing for good would hold the endpoint's key, so it
    // keeps trying, backing off to an hour.
    retryLimit: 1000,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 3600,
    deleteAfterSeconds: 24 * 3600,
  },
  // Polled, not woken by NOTIFY: an endpoint's next job becomes fetchable when the one before it
  // ends, which notifies nobody. The workers' polls (each every 2 s) interleave, so it is taken within a fraction of a second.
  work: { localConcurrency: MAX_SENDING, localGroupConcurrency: PER_WORKSPACE, pollingIntervalSeconds: 2 },
  handle: deliver,
};

type Relayed = { id: string; jobId: string; endpointId: string; workspaceId: string; nextAttemptAt: Date };

/**
 * Queues a job for each pending delivery of an active endpoint that has none
 * (new, due for a retry, or its endpoint resumed), oldest first; returns how
 * many it queued.
 */
export async function relayDeliveries(): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Omit<Relayed, 'jobId'>[]>`
      SELECT d."id", d."endpointId", e."workspaceId", d."nextAttemptAt"
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."jobId" IS NULL AND d."status" = 'pending' AND e."active"
      ORDER BY d."createdAt", d."id" LIMIT ${RELAY_BATCH}
      FOR UPDATE OF d SKIP LOCKED`;
    if (!rows.length) return 0;
    const relayed: Relayed[] = rows.map((row) => ({ ...row, jobId: orderedJobId() }));
    await tx.$executeRaw`
      UPDATE "WebhookDelivery" d SET "jobId" = r."jobId"
      FROM unnest(${relayed.map((r) => r.id)}::text[], ${relayed.map((r) => r.jobId)}::uuid[]) AS r("id", "jobId")
      WHERE d."id" = r."id"`;
    await sendJobs(
      webhookDeliveries,
      relayed.map((r) => ({ id: r.jobId, data: { delivery: r.id }, singletonKey: r.endpointId, group: { id: r.workspaceId }, startAfter: r.nextAttemptAt })),
      { db: fromPrisma(tx) },
    );
    return relayed.length;
  });
}

/** Relays deliveries every second in this process; returns the function that stops it (once no relay is running). */
export function startWebhookRelay(): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      relayDeliveries().catch((error) => {
        // An outage is logged once for the whole process (lib/db/client.ts), not on every tick.
        if (isDatabaseUnavailable(error)) noteDatabaseUnavailable();
        else log.error('webhook relay failed', { error: String(error) });
      }),
    );
  }, RELAY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
