// Fixed-window counters in Postgres, so every instance sees the same counts.
import { db } from './db/client.ts';
import { ApiError } from './http/errors.ts';

export type Counter = { count: number; resetAt: Date };

/** Adds one to `key` in its current window (a new window starts when the old one has passed). */
export async function countHit(key: string, windowMs: number): Promise<Counter> {
  const [row] = await db.$queryRaw<Counter[]>`
    INSERT INTO "RateCounter" ("key", "count", "resetAt")
    VALUES (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateCounter"."resetAt" <= now() THEN 1 ELSE "RateCounter"."count" + 1 END,
      "resetAt" = CASE WHEN "RateCounter"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "RateCounter"."resetAt" END
    RETURNING "count", "resetAt"`;
  return row;
}

/** Throws rate_limited (with Retry-After) when any of the keys has reached its limit in its window. */
export async function assertUnderLimit(limits: { key: string; limit: number }[], message: string): Promise<void> {
  const rows = await db.rateCounter.findMany({ where: { key: { in: limits.map((l) => l.key) }, resetAt: { gt: new Date() } } });
  for (const row of rows) {
    const { limit } = limits.find((l) => l.key === row.key)!;
    if (row.count >= limit) {
      const seconds = Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000));
      throw new ApiError('rate_limited', message, { 'retry-after': String(seconds) });
    }
  }
}
