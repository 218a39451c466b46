// The one Prisma client of the process, over node-postgres. It connects on
// first use, so importing it (as `next build` does) needs no database.
//
// The pool is bounded and every wait on it is too: a request that cannot get
// a connection fails after ACQUIRE_TIMEOUT_MS instead of queueing forever, and
// a transaction holds its connection for TRANSACTION_TIMEOUT_MS at most
// (longer only where a caller says so). Code inside a transaction must use the
// transaction client it is given, never `db`: a second connection taken while
// one is held deadlocks the pool once enough transactions run at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { config } from '../config.ts';
import { log } from '../log.ts';
import { databasePoolConnections, databasePoolWaiting } from '../core/metrics.ts';
import { PrismaClient } from './generated/client.ts';

/** How long a query or a transaction waits for a free connection. */
const ACQUIRE_TIMEOUT_MS = 10_000;
/** How long a transaction may run before it is rolled back. */
const TRANSACTION_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;

type Pools = { client: PrismaClient; pool: pg.Pool };

function createClient(): Pools {
  const url = config.databaseUrl;
  // One pool for Prisma and for the few hot statements sent as plain SQL
  // (query() below), so both share DATABASE_POOL_SIZE connections.
  const pool = new pg.Pool({
    connectionString: url,
    max: config.databasePoolSize,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  });
  pool.on('error', () => {}); // an idle client's error; the next query reports its own
  const adapterFactory = new PrismaPg(pool);
  const adapter = {
    provider: 'postgres' as const,
    adapterName: adapterFactory.adapterName,
    connect: () => {
      if (!url) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
      return adapterFactory.connect();
    },
  };
  const client = new PrismaClient({
    adapter,
    transactionOptions: { maxWait: ACQUIRE_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS },
    // Tests count queries (test/query-count.ts); nothing else listens to them.
    log: config.nodeEnv === 'test' ? [{ emit: 'event', level: 'query' }] : [],
  });
  return { client: config.nodeEnv === 'test' ? guarded(client) : client, pool };
}

// Set while an interactive transaction's callback runs.
const inTransaction = new AsyncLocalStorage<true>();

function refuseInsideTransaction(what: string) {
  if (inTransaction.getStore()) {
    throw new Error(`db.${what} was called inside a transaction: use the transaction client the callback was given (a second connection can deadlock the pool).`);
  }
}

/**
 * In tests, `db` refuses to query from inside a transaction's callback, so
 * that the mistake fails loudly instead of waiting for a busy day. The check
 * runs when the call is made, in the caller's context; the transaction client
 * is Prisma's own object and is not checked.
 */
function guarded(client: PrismaClient): PrismaClient {
  const wrap = (target: object, name: string) =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (typeof value !== 'function' || typeof key !== 'string') return value;
        return (...args: unknown[]) => {
          refuseInsideTransaction(`${name}${key}`);
          return value.apply(object, args);
        };
      },
    });
  return new Proxy(client, {
    get(object, key) {
      const value = Reflect.get(object, key);
      if (typeof key !== 'string') return value;
      if (key === '$transaction') {
        return (work: unknown, options?: unknown) => {
          refuseInsideTransaction(key);
          const run = typeof work === 'function' ? (tx: unknown) => inTransaction.run(true, () => work(tx)) : work;
          return (value as (work: unknown, options?: unknown) => unknown).call(object, run, options);
        };
      }
      if (/^\$(query|execute)Raw/.test(key)) {
        return (...args: unknown[]) => {
          refuseInsideTransaction(key);
          return (value as (...args: unknown[]) => unknown).apply(object, args);
        };
      }
      // Model delegates (db.user, db.space, …).
      if (!key.startsWith('$') && !key.startsWith('_') && value && typeof value === 'object') return wrap(value, `${key}.`);
      return value;
    },
  });
}

// One client per process, also across Next's module reloads in development.
// The pool is kept beside the client so that tests can close both.
const holder = globalThis as { atriumDb?: PrismaClient; atriumDbPool?: pg.Pool };
if (!holder.atriumDb || !holder.atriumDbPool) ({ client: holder.atriumDb, pool: holder.atriumDbPool } = createClient());
export const db: PrismaClient = holder.atriumDb;
const pool: pg.Pool = holder.atriumDbPool;

databasePoolConnections(() => ({ in_use: pool.totalCount - pool.idleCount, idle: pool.idleCount }));
databasePoolWaiting(() => pool.waitingCount);

// Tests count these with Prisma's own queries (test/query-count.ts).
const rawQueryListeners: Array<() => void> = [];
export function onRawQuery(listener: () => void): void {
  rawQueryListeners.push(listener);
}

/**
 * One statement in plain SQL on the shared pool, for the few hot paths where
 * Prisma's per-query cost dominates (token lookup, /v1/me, blob uploads).
 * Never inside a transaction's callback (the same rule as `db`).
 */
export async function query<Row extends object>(text: string, values: unknown[] = []): Promise<Row[]> {
  if (config.nodeEnv === 'test') {
    refuseInsideTransaction('query');
    for (const listener of rawQueryListeners) listener();
  }
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
  try {
    return (await pool.query<Row>({ name: statementName(text), text, values })).rows;
  } catch (error) {
    throw poolError(error);
  }
}

/** A statement on a plain transaction's connection (transaction() below), prepared as query()'s are. */
export type Sql = <Row extends object>(text: string, values?: unknown[]) => Promise<Row[]>;

/**
 * A transaction in plain SQL on one connection of the shared pool, for a hot
 * path where Prisma's interactive transaction costs more than the work (a
 * space database's write). `open` is sent with BEGIN as one simple query
 * (several statements, values only as escaped literals: pg.escapeLiteral),
 * so opening the transaction and its first statements cost one round trip;
 * `work` gets their results and runs its statements on the same connection.
 * COMMIT when `work` resolves; ROLLBACK when anything fails, and a connection
 * whose rollback fails is destroyed, never returned to the pool inside a
 * transaction. Never nested in another transaction (the same rule as `db`).
 */
export async function transaction<T>(open: string, work: (sql: Sql, opened: pg.QueryResult[]) => Promise<T>): Promise<T> {
  if (config.nodeEnv === 'test') refuseInsideTransaction('transaction');
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set: start Atrium with `npm start`, which provides a database.');
  const client = await pool.connect().catch((error: unknown) => Promise.reject(poolError(error)));
  // The connection may break while no statement is running (PostgreSQL restarting during the
  // work): the next statement reports it; unheard, the client's 'error' event would end the process.
  const ignore = () => {};
  client.on('error', ignore);
  const release = (destroy: boolean) => {
    client.off('error', ignore);
    client.release(destroy);
  };
  const send = async <Row extends object>(query: string | pg.QueryConfig): Promise<pg.QueryResult<Row>> => {
    if (config.nodeEnv === 'test') for (const listener of rawQueryListeners) listener();
    return client.query<Row>(query).catch((error: unknown) => Promise.reject(poolError(error)));
  };
  const sql: Sql = async <Row extends object>(text: string, values: unknown[] = []) => (await send<Row>({ name: statementName(text), text, values })).rows;
  try {
    const results = (await send(`BEGIN; ${open}`)) as unknown as pg.QueryResult[];
    const value = await inTransaction.run(true, () => work(sql, results.slice(1)));
    // COMMIT in a transaction that a failed statement aborted is answered ROLLBACK, not an error.
    if ((await send('COMMIT')).command !== 'COMMIT') throw new Error('The transaction was rolled back: one of its statements failed.');
    release(false);
    return value;
  } catch (error) {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    release(!rolledBack);
    throw error;
  }
}

function poolError(error: unknown): unknown {
  if (error && typeof error === 'object') poolErrors.add(error);
  return error;
}

// The pool's errors, so that a socket error of its own (ECONNREFUSED) is told apart from
// another connection's (the blob store's, a webhook target's).
const poolErrors = new WeakSet<object>();

// Each statement is prepared once per connection under a name of its text, so
// PostgreSQL parses and plans a hot statement once rather than on every call.
// The text must therefore be a constant (values go in `values`): every
// distinct text stays prepared on every connection for as long as it lives.
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `atrium_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}
export type { PrismaClient };
export { Prisma } from './generated/client.ts';

/**
 * True for a failure to get a connection or start a transaction in time: the
 * database is busy, not broken, and the request may be retried.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { code?: unknown }).code === 'P2028') return true;
  return /timeout exceeded when trying to connect|Unable to start a transaction in the given time/i.test(error.message);
}

// Signs that PostgreSQL itself is down or restarting, rather than a query
// failing: the pool's socket errors, SQLSTATE 57P01-57P03 (shut down, crashed,
// starting up) and class 08 (connection exceptions), node-postgres's
// "Connection terminated" and its refusal to query a connection that broke so
// (a transaction's next statement), and Prisma's and its adapter's names for the same.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
const UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', '57P01', '57P02', '57P03']);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);

/** True when `error` (or what it wraps) says PostgreSQL cannot be reached now. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, kind, message, cause, meta } = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || (SOCKET_CODES.has(code) && poolErrors.has(error)))) return true;
  if (typeof kind === 'string' && UNREACHABLE_KINDS.has(kind)) return true;
  if (typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error and is not queryable|the database system is (shutting down|starting up|in recovery mode)/.test(message)) return true;
  return isDatabaseUnavailable(cause, depth + 1) || isDatabaseUnavailable(meta?.driverAdapterError, depth + 1);
}

const OUTAGE_PROBE_MS = 1000;
let outageSince: number | null = null;

/**
 * Logs an outage once when it starts, and once when PostgreSQL answers again
 * (probed every second meanwhile), instead of a line per failed request.
 */
export function noteDatabaseUnavailable(): void {
  if (outageSince !== null) return;
  outageSince = Date.now();
  log.warn('database unavailable: answering 503 until it answers again');
  const probe = () =>
    setTimeout(() => {
      pool.query('SELECT 1').then(
        () => {
          log.info('database is back', { ms: Date.now() - outageSince! });
          outageSince = null;
        },
        probe,
      );
    }, OUTAGE_PROBE_MS).unref();
  probe();
}

