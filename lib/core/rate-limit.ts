// Rate limits shared by every instance of Atrium, on rate-limiter-flexible.
// Counters live in Redis when REDIS_URL is set, else in Postgres (the
// RateLimit table, made by a migration); never only in this process's memory,
// so that several instances agree. While Redis refuses, fails or hangs, the
// counts fall back to Postgres rather than to no limit at all (or to no answer):
// a Redis command waits REDIS_COMMAND_TIMEOUT_MS at most, and after a failure
// counts go straight to Postgres for REDIS_RETRY_MS before Redis is tried again.
//
// An area declares its limit once and counts before the check it guards:
//
//   const comments = rateLimit({ name: 'guest-comment', points: 20, duration: 600,
//     message: 'Too many comments from your address; wait a few minutes.' });
//   await comments.consume(addressKey(clientAddress(request)));   // 429 once over
//
// consume() adds to the count atomically in the store and throws
// ApiError('rate_limited', message, { 'retry-after': seconds }) once the count
// passes `points` within the window of `duration` seconds (a fixed window that
// starts at the key's first hit).
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { config } from '../config.ts';
import { noteDependency } from './dependencies.ts';
import { rateLimitRefusals } from './metrics.ts';
import { ApiError } from './errors.ts';

export type RateLimitSpec = {
  /** Unique among limits: the prefix of its keys in the store. */
  name: string;
  /** How many hits a key may have in each window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
  /** The 429's message. */
  message: string;
};

export type Count = { consumed: number; remaining: number; retryAfter: number };

export type Limiter = {
  readonly spec: RateLimitSpec;
  /** Counts `points` hits for `key`; throws rate_limited with Retry-After once over. */
  consume(key: string, points?: number): Promise<Count>;
  /** Counts hits without ever throwing (e.g. to penalise, or to remember that something happened). */
  penalize(key: string, points?: number): Promise<Count>;
  /** Gives back hits counted for something that turned out fine. */
  refund(key: string, points?: number): Promise<void>;
  /** The key's count in its current window, without counting; null when it has none. */
  peek(key: string): Promise<Count | null>;
  /** Forgets the key's count. */
  reset(key: string): Promise<void>;
};

export const RATE_LIMIT_TABLE = 'RateLimit';

/** How long a count waits for Redis before it is counted in Postgres instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** After Redis failed a count, how long counts skip it (so that a hung Redis costs one wait, not one per request). */
const REDIS_RETRY_MS = 2000;

type Stores = { pool: pg.Pool; redis: Redis | null; ready: Promise<void>; sweep: ReturnType<typeof setInterval>; redisSkippedUntil: number };
let stores: Stores | null = null;

// The stores are opened on first use, so importing this module (as `next build`
// does) needs neither database nor Redis.
function openStores(): Stores {
  if (stores) return stores;
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
  // A small pool of its own: a counter is one statement, never inside a transaction.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {}); // an idle client's error; the next query reports its own
  let redis: Redis | null = null;
  let ready = Promise.resolve();
  if (config.redisUrl) {
    // No offline queue: while Redis is down, counting falls back to Postgres at once.
    const client = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    client.on('error', () => {}); // reconnects by itself; counts go to Postgres meanwhile
    // The first counts wait (a second at most) for the connection, so that a
    // starting instance does not count in Postgres what belongs in Redis.
    ready = new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      timer.unref();
      client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    redis = client;
  }
  // Expired rows are overwritten on their key's next hit; the others are
  // deleted every ten minutes by each instance (one indexed DELETE).
  const sweep = setInterval(() => {
    pool.query(`DELETE FROM "${RATE_LIMIT_TABLE}" WHERE "expire" < $1`, [Date.now() - 60_000]).catch(() => {});
  }, 10 * 60_000);
  sweep.unref();
  stores = { pool, redis, ready, sweep, redisSkippedUntil: 0 };
  return stores;
}

/** Closes the connections (tests, shutdown). Limiters reopen them on next use. */
export async function closeRateLimitStores(): Promise<void> {
  const open = stores;
  stores = null;
  built.clear();
  if (!open) return;
  clearInterval(open.sweep);
  open.redis?.disconnect();
  await open.pool.end();
}

/** True when Redis (REDIS_URL) answers a PING now; false when it does not or is not configured. */
export async function pingRedis(): Promise<boolean> {
  const { redis, ready } = openStores();
  if (!redis) return false;
  await ready;
  return (await redis.ping()) === 'PONG';
}

/**
 * Installs that share one Redis server (or test databases on one machine)
 * keep apart: keys carry a short hash of the database they belong to.
 */
function redisNamespace(): string {
  const url = new URL(config.databaseUrl!);
  return createHash('sha256').update(`${url.host}${url.pathname}`).digest('hex').slice(0, 12);
}

// One pair of store-backed limiters per declared name, made on first use:
// Redis's (when configured) and Postgres's, which counts while Redis cannot.
type Pair = { redis: RateLimiterAbstract | null; postgres: RateLimiterAbstract };
const built = new Map<string, Pair>();

function build(spec: RateLimitSpec): Pair {
  const existing = built.get(spec.name);
  if (existing) return existing;
  const { pool, redis } = openStores();
  const common = { keyPrefix: spec.name, points: spec.points, duration: spec.duration };
  const postgres = new RateLimiterPostgres({
    ...common,
    storeClient: pool,
    storeType: 'pool',
    tableName: RATE_LIMIT_TABLE,
    // The migration made the table; the limiter must not try to.
    tableCreated: true,
    // Every limiter would otherwise run its own sweep every five minutes.
    clearExpiredByTimeout: false,
  });
  const pair = {
    // Prefixed: one Redis may serve other applications too.
    redis: redis && new RateLimiterRedis({ ...common, keyPrefix: `atrium:${redisNamespace()}:rl:${spec.name}`, storeClient: redis, rejectIfRedisNotReady: true }),
    postgres,
  };
  built.set(spec.name, pair);
  return pair;
}

/**
 * Runs one operation on Redis's limiter, or on Postgres's when Redis is not
 * configured, failed just now, or fails (refused, timed out). A RateLimiterRes
 * thrown is an answer (over the limit), not a failure.
 */
async function counted<T>(spec: RateLimitSpec, operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
  const pair = build(spec);
  await stores?.ready;
  const open = stores!;
  if (!pair.redis || Date.now() < open.redisSkippedUntil) return operation(pair.postgres);
  try {
    const result = await operation(pair.redis);
    noteDependency('redis', true);
    return result;
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      noteDependency('redis', true);
      throw error;
    }
    noteDependency('redis', false);
    open.redisSkippedUntil = Date.now() + REDIS_RETRY_MS;
    return operation(pair.postgres);
  }
}

// The Postgres column holds 255 characters; long keys (a path, a user agent) are hashed.
function storeKey(key: string): string {
  return key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`;
}

const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function countOf(res: RateLimiterRes): Count {
  return { consumed: res.consumedPoints, remaining: res.remainingPoints, retryAfter: retryAfter(res.msBeforeNext) };
}

const declared = new Map<string, RateLimitSpec>();

/** The limits declared so far in this process, by name. */
export function declaredRateLimits(): ReadonlyMap<string, RateLimitSpec> {
  return declared;
}

/** Declares a limit. Cheap: the store is reached on the first count. */
export function rateLimit(spec: RateLimitSpec): Limiter {
  if (!/^[\w.-]+$/.test(spec.name)) throw new Error(`rate limit name ${JSON.stringify(spec.name)}: use letters, digits, ".", "-" and "_"`);
  if (!(spec.points >= 1 && spec.duration >= 1)) throw new Error(`rate limit ${spec.name}: points and duration must be at least 1`);
  // Two limits under one name would share counts: refuse a second, different one.
  const earlier = declared.get(spec.name);
  if (earlier && (earlier.points !== spec.points || earlier.duration !== spec.duration)) throw new Error(`rate limit ${spec.name} is declared twice`);
  declared.set(spec.name, spec);
  return {
    spec,
    async consume(key, points = 1) {
      try {
        return countOf(await counted(spec, (limiter) => limiter.consume(storeKey(key), points)));
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          rateLimitRefusals.inc({ limit: spec.name });
          const seconds = retryAfter(error.msBeforeNext);
          throw new ApiError('rate_limited', spec.message, { 'retry-after': String(seconds) });
        }
        throw error;
      }
    },
    async penalize(key, points = 1) {
      return countOf(await counted(spec, (limiter) => limiter.penalty(storeKey(key), points)));
    },
    async refund(key, points = 1) {
      await counted(spec, (limiter) => limiter.reward(storeKey(key), points));
    },
    async peek(key) {
      const res = await counted(spec, (limiter) => limiter.get(storeKey(key)));
      return res ? countOf(res) : null;
    },
    async reset(key) {
      await counted(spec, (limiter) => limiter.delete(storeKey(key)));
    },
  };
}
