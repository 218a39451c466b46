// Sends queued webhook deliveries. Any node may: a delivery is claimed by one
// statement that skips rows another node holds and moves the delivery's next
// attempt past a lease, so two nodes never send it at once; a node that dies
// mid-send leaves it to be claimed again when the lease ends (at least once:
// receivers deduplicate on Atrium-Event-Id). Failures are retried with
// back-off for about a day, then the delivery is marked failed.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { db } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import { log } from '../log.ts';
import { decryptSecret, signatureHeader } from './secret.ts';
import { resolveTarget, type Target } from './target.ts';

/** Seconds before each retry; after the last one fails the delivery is marked failed (about 25 hours in all). */
export const RETRY_AFTER_SECONDS = [60, 300, 1800, 7200, 18_000, 36_000, 28_800];
/** How long a claimed delivery is left to the node that claimed it. */
const LEASE_SECONDS = 60;
const TIMEOUT_MS = 10_000;
/** Bytes of an answer read at most; the first RESPONSE_KEPT characters are kept for the log. */
const RESPONSE_READ_BYTES = 64 * 1024;
const RESPONSE_KEPT = 1024;
const BATCH = 20;
const POLL_MS = 1000;

type Claimed = { id: string; eventId: string; event: string; payload: unknown; attempts: number; url: string; secretEncrypted: string };

async function claimDue(limit: number): Promise<Claimed[]> {
  return db.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT d."id" FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= now() AND e."active"
      ORDER BY d."nextAttemptAt" LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET "attempts" = d."attempts" + 1, "lastAttemptAt" = now(), "nextAttemptAt" = now() + make_interval(secs => ${LEASE_SECONDS})
    FROM due, "WebhookEndpoint" e
    WHERE d."id" = due."id" AND e."id" = d."endpointId"
    RETURNING d."id", d."eventId", d."event", d."payload", d."attempts", e."url", e."secretEncrypted"`;
}

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
    'atrium-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
  });
}

async function deliver(claim: Claimed): Promise<void> {
  const outcome = await attempt(claim);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const retryIn = RETRY_AFTER_SECONDS[claim.attempts - 1];
  const status = delivered ? 'delivered' : retryIn === undefined ? 'failed' : 'pending';
  // Only while the claim is still ours (the same attempt): a lease that ran
  // out may have let another node claim it since.
  await db.$executeRaw`
    UPDATE "WebhookDelivery" SET "status" = ${status}, "responseStatus" = ${outcome.status}, "durationMs" = ${outcome.durationMs},
      "responseBody" = ${outcome.body}, "error" = ${outcome.error},
      "nextAttemptAt" = now() + make_interval(secs => ${status === 'pending' ? retryIn : 0})
    WHERE "id" = ${claim.id} AND "attempts" = ${claim.attempts}`;
  if (!delivered) log.info('webhook delivery failed', { delivery: claim.id, event: claim.event, attempt: claim.attempts, status: outcome.status, error: outcome.error, final: status === 'failed' });
}

/** Claims and sends the deliveries that are due, up to `limit`; returns how many were attempted. */
export async function deliverDue(limit = BATCH): Promise<number> {
  const claimed = await claimDue(limit);
  await Promise.all(claimed.map(deliver));
  return claimed.length;
}

let dispatcher: NodeJS.Timeout | undefined;

/** Sends due deliveries every second in this process, one pass at a time; returns the function that stops it. */
export function startWebhookDispatcher(): () => void {
  if (dispatcher) return () => {};
  let running = false;
  dispatcher = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      while ((await deliverDue()) === BATCH);
    } catch (error) {
      log.error('webhook dispatch failed', { error: String(error) });
    } finally {
      running = false;
    }
  }, POLL_MS);
  dispatcher.unref();
  return () => {
    clearInterval(dispatcher);
    dispatcher = undefined;
  };
}
