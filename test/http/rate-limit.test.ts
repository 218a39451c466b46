import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { config, loadConfig } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { addressKey } from '@/lib/core/client.ts';
import { ApiError } from '@/lib/core/errors.ts';
import { closeRateLimitStores, rateLimit } from '@/lib/core/rate-limit.ts';

const unique = () => randomBytes(6).toString('hex');
const savedRedisUrl = config.redisUrl;

afterEach(async () => {
  config.redisUrl = savedRedisUrl;
  await closeRateLimitStores();
});
afterAll(closeRateLimitStores);

async function outcomes(attempts: Promise<unknown>[]) {
  const settled = await Promise.allSettled(attempts);
  return {
    passed: settled.filter((s) => s.status === 'fulfilled').length,
    limited: settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as ApiError] : [])),
  };
}

async function postgresPoints(key: string): Promise<number | null> {
  const rows = await db.$queryRaw<{ points: number }[]>`SELECT "points" FROM "RateLimit" WHERE "key" = ${key}`;
  return rows[0]?.points ?? null;
}

describe('rate limits in Postgres', () => {
  it('let exactly `points` of many parallel hits through, and answer the rest 429 with Retry-After', async () => {
    config.redisUrl = undefined;
    const limit = rateLimit({ name: `test-${unique()}`, points: 3, duration: 120, message: 'Slow down.' });
    const { passed, limited } = await outcomes(Array.from({ length: 40 }, () => limit.consume('client-a')));
    expect(passed).toBe(3);
    expect(limited).toHaveLength(37);
    const [first] = limited;
    expect(first).toBeInstanceOf(ApiError);
    expect([first.code, first.status, first.message]).toEqual(['rate_limited', 429, 'Slow down.']);
    expect(Number(first.headers['retry-after'])).toBeGreaterThan(100);
    expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(120);
    // Each key counts alone.
    await expect(limit.consume('client-b')).resolves.toMatchObject({ consumed: 1, remaining: 2 });
    expect(await postgresPoints(`${limit.spec.name}:client-a`)).toBe(40);
  });

  it('are shared: a fresh set of connections (another instance) sees the same counts', async () => {
    config.redisUrl = undefined;
    const spec = { name: `test-${unique()}`, points: 2, duration: 60, message: 'Slow down.' };
    await rateLimit(spec).consume('k');
    await rateLimit(spec).consume('k');
    await closeRateLimitStores();
    await expect(rateLimit(spec).consume('k')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('give tries back, tell a count without counting, and forget a key', async () => {
    config.redisUrl = undefined;
    const limit = rateLimit({ name: `test-${unique()}`, points: 2, duration: 60, message: 'Slow down.' });
    expect(await limit.peek('k')).toBeNull();
    await limit.consume('k');
    await limit.consume('k');
    await limit.refund('k');
    expect(await limit.peek('k')).toMatchObject({ consumed: 1, remaining: 1 });
    await limit.consume('k');
    await expect(limit.consume('k')).rejects.toMatchObject({ code: 'rate_limited' });
    await limit.reset('k');
    await expect(limit.consume('k')).resolves.toMatchObject({ consumed: 1 });
    await expect(limit.penalize('k', 5)).resolves.toMatchObject({ consumed: 6 });
  });

  it('store a long key by its hash, within the column', async () => {
    config.redisUrl = undefined;
    const limit = rateLimit({ name: `test-${unique()}`, points: 1, duration: 60, message: 'Slow down.' });
    await limit.consume('x'.repeat(1000));
    await expect(limit.consume('x'.repeat(1000))).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(limit.consume('x'.repeat(999))).resolves.toMatchObject({ consumed: 1 });
  });
});

// Runs where a Redis server is given (the project's CI has one on 127.0.0.1:6379).
describe.skipIf(!process.env.REDIS_URL)('rate limits with REDIS_URL', () => {
  const redisUrl = process.env.REDIS_URL!;

  it('count in Redis, atomically, and not in Postgres', async () => {
    config.redisUrl = redisUrl;
    const limit = rateLimit({ name: `test-${unique()}`, points: 5, duration: 60, message: 'Slow down.' });
    const { passed, limited } = await outcomes(Array.from({ length: 30 }, () => limit.consume('client')));
    expect([passed, limited.length]).toEqual([5, 25]);
    const redis = new Redis(redisUrl);
    try {
      const [key] = await redis.keys(`atrium:*:rl:${limit.spec.name}:client`);
      expect(key).toMatch(/^atrium:[0-9a-f]{12}:rl:/);
      expect(await redis.get(key)).toBe('30');
      expect(await redis.pttl(key)).toBeGreaterThan(50_000);
    } finally {
      redis.disconnect();
    }
    expect(await postgresPoints(`${limit.spec.name}:client`)).toBeNull();
  });

  it('fall back to Postgres while Redis cannot be reached, rather than to no limit', async () => {
    config.redisUrl = 'redis://127.0.0.1:1';
    const limit = rateLimit({ name: `test-${unique()}`, points: 2, duration: 60, message: 'Slow down.' });
    const { passed, limited } = await outcomes(Array.from({ length: 6 }, () => limit.consume('client')));
    expect([passed, limited.length]).toEqual([2, 4]);
    expect(await postgresPoints(`${limit.spec.name}:client`)).toBe(6);
  });
});

describe('REDIS_URL', () => {
  it('takes a redis:// or rediss:// URL and names the variable otherwise, without echoing it', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache.example.com:6380/2' }).redisUrl).toBe('rediss://user:pw@cache.example.com:6380/2');
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'http://user:pw@cache.example.com' })).toThrow('REDIS_URL=(hidden): must be a redis:// or rediss:// URL');
  });
});

describe('addressKey', () => {
  it('counts IPv4 addresses alone, IPv6 by /64 network, mapped IPv4 as IPv4, and unknown clients together', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:c000:201')).toBe('192.0.2.1');
    expect(addressKey(null)).toBe('unknown');
  });
});
