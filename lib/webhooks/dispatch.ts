// Sends queued webhook deliveries. Any node may: a delivery is claimed by one
// statement that skips rows another node holds and moves the delivery's next
// attempt past a lease, so two nodes never send it at once; a node that dies
// mid-send leaves it to be claimed again when the lease ends (at least once:
// receivers deduplicate on Atrium-Event-Id). Failures are retried with
// back-off for about a day, then the delivery is marked failed.
//
// Fair between endpoints and workspaces: a node sends at most one delivery per
// endpoint at a time (its oldest due), at most MAX_SENDING at once, and at most
// PER_WORKSPACE of them for one workspace; each free place goes to the workspace
// with the fewest deliveries in flight (then the oldest due). A slow endpoint
// holds only its own deliveries, and one workspace's slow endpoints hold at most
// PER_WORKSPACE places of a node. Each delivery that ends claims the next.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { db, isDatabaseUnavailable, noteDatabaseUnavailable } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { log } from '../log.ts';
import { decryptSecret, signatureHeaders } from './secret.ts';
import { resolveTarget, type Target } from './target.ts';

/** Seconds before each retry; after the last one fails the delivery is marked failed (about 25 hours in all). */
export const RETRY_AFTER_SECONDS = [60, 300, 1800, 7200, 18_000, 36_000, 28_800];
/** How long a claimed delivery is left to the node that claimed it. */
const LEASE_SECONDS = 60;
const TIMEOUT_MS = 10_000;
/** Bytes of an answer read at most; the first RESPONSE_KEPT characters are kept for the log. */
const RESPONSE_READ_BYTES = 64 * 1024;
const RESPONSE_KEPT = 1024;
/** Deliveries a node sends at once, in all, and for one workspace. */
export const MAX_SENDING = 32;
export const PER_WORKSPACE = 8;
const POLL_MS = 1000;

type Claimed = { id: string; eventId: string; event: string; payload: unknown; attempts: number; url: string; secretEncrypted: string; endpointId: string; workspaceId: string };

/** What this node is sending now: claims leave these endpoints out and count these workspaces' places. */
const sending = { endpoints: new Set<string>(), workspaces: new Map<string, number>(), count: 0 };

async function claimDue(limit: number): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const busyEndpoints = [...sending.endpoints];
  const busyWorkspaces = [...sending.workspaces.keys()];
  const inFlight = [...sending.workspaces.values()];
  return db.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT DISTINCT ON (d."endpointId") d."id", e."workspaceId", d."nextAttemptAt"
      FROM "WebhookDelivery" d JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= now() AND e."active" AND d."endpointId" <> ALL(${busyEndpoints}::text[])
      ORDER BY d."endpointId", d."nextAttemptAt", d."createdAt"
    ),
    -- A workspace's n-th due delivery would be its (in flight + n)-th place at once.
    places AS (
      SELECT due."id", due."nextAttemptAt",
        coalesce(b."inFlight", 0) + row_number() OVER (PARTITION BY due."workspaceId" ORDER BY due."nextAttemptAt") AS "place"
      FROM due LEFT JOIN unnest(${busyWorkspaces}::text[], ${inFlight}::int[]) AS b("workspaceId", "inFlight") ON b."workspaceId" = due."workspaceId"
    ),
    chosen AS (
      SELECT d."id" FROM "WebhookDelivery" d JOIN places p ON p."id" = d."id"
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= now() AND p."place" <= ${PER_WORKSPACE}
      ORDER BY p."place", p."nextAttemptAt" LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET "attempts" = d."attempts" + 1, "lastAttemptAt" = now(), "nextAttemptAt" = now() + make_interval(secs => ${LEASE_SECONDS})
    FROM chosen, "WebhookEndpoint" e
    WHERE d."id" = chosen."id" AND e."id" = d."endpointId"
    RETURNING d."id", d."eventId", d."event", d."payload", d."attempts", e."url", e."secretEncrypted", e."id" AS "endpointId", e."workspaceId"`;
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
    ...signatureHeaders(secret, claim.eventId, body, Math.floor(Date.now() / 1000)),
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

// Claims run one at a time on a node, so that each sees what the one before took.
let claims: Promise<unknown> = Promise.resolve();

/** Claims what this node may send now (up to `limit`) and counts it as sending until `send` ends. */
function claim(limit: number): Promise<Claimed[]> {
  const claimed = claims.then(() => claimDue(Math.min(limit, MAX_SENDING - sending.count))).then((rows) => {
    for (const row of rows) {
      sending.endpoints.add(row.endpointId);
      sending.workspaces.set(row.workspaceId, (sending.workspaces.get(row.workspaceId) ?? 0) + 1);
      sending.count++;
    }
    return rows;
  });
  claims = claimed.catch(() => {});
  return claimed;
}

async function send(row: Claimed): Promise<void> {
  try {
    await deliver(row);
  } catch (error) {
    // The lease runs out and the delivery is claimed again.
    log.error('webhook delivery could not be recorded', { delivery: row.id, error: String(error) });
  } finally {
    sending.endpoints.delete(row.endpointId);
    const left = (sending.workspaces.get(row.workspaceId) ?? 1) - 1;
    if (left > 0) sending.workspaces.set(row.workspaceId, left);
    else sending.workspaces.delete(row.workspaceId);
    sending.count--;
  }
}

/** Claims and sends the deliveries that are due (one per endpoint), up to `limit`; returns how many were attempted. */
export async function deliverDue(limit = MAX_SENDING): Promise<number> {
  const claimed = await claim(limit);
  await Promise.all(claimed.map(send));
  return claimed.length;
}

let dispatcher: NodeJS.Timeout | undefined;

/**
 * Sends due deliveries in this process: every second, and again whenever a
 * delivery ends (its place goes to the next one due); returns the function
 * that stops it (resolved once no claim is running; deliveries in flight end
 * on their own, or their lease does).
 */
export function startWebhookDispatcher(): () => Promise<void> {
  if (dispatcher) return async () => {};
  let stopped = false;
  const fill = async () => {
    if (stopped) return;
    try {
      const claimed = await claim(MAX_SENDING);
      for (const row of claimed) void send(row).then(fill);
    } catch (error) {
      // An outage is logged once for the whole process (lib/db/client.ts), not on every tick.
      if (isDatabaseUnavailable(error)) noteDatabaseUnavailable();
      else log.error('webhook dispatch failed', { error: String(error) });
    }
  };
  dispatcher = setInterval(fill, POLL_MS);
  dispatcher.unref();
  return async () => {
    stopped = true;
    clearInterval(dispatcher);
    dispatcher = undefined;
    await claims;
  };
}
