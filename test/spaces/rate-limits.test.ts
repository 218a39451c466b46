// Limits on what strangers can do to a space: guessing its password, flooding
// its visitor statistics, and what a caller who unlocked it is told.
import { describe, expect, it } from 'vitest';
import { POST as planRoute } from '@/app/v1/spaces/[id]/push/plan/route.ts';
import { PATCH as patchRoute } from '@/app/v1/spaces/[id]/route.ts';
import { POST as unlockRoute } from '@/app/v1/spaces/[id]/unlock/route.ts';
import { GET as versionsRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { POST as viewsRoute } from '@/app/v1/spaces/[id]/views/route.ts';
import { GET as visitorsRoute } from '@/app/v1/spaces/[id]/visitors/route.ts';
import { db } from '@/lib/db/client.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { BEACONS_PER_MINUTE, flushViews } from '@/lib/spaces/visitors.ts';
import { TRIES_PER_ADDRESS, TRIES_PER_SPACE } from '@/lib/spaces/unlock.ts';
import { call, signIn } from '../helpers.ts';
import { fileList, makeSpace, push } from './fixtures.ts';

async function protectedSpace(handle: string, password: string) {
  const owner = await signIn(handle);
  const space = await makeSpace(owner.token, handle);
  await push(owner.token, space.id, { 'index.html': 'secret' });
  const set = await call(patchRoute, 'PATCH', '', { token: owner.token, body: { password }, params: { id: space.id } });
  expect(set.status).toBe(200);
  return { owner, space };
}

const unlock = (id: string, password: string, peer: string, token?: string) =>
  call(unlockRoute, 'POST', `/v1/spaces/${id}/unlock`, { token, body: { password }, params: { id }, headers: { [PEER_HEADER]: peer } });

const statuses = (results: { status: number }[]) =>
  results.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe('unlocking a space', () => {
  it('counts each try before checking the password: 200 parallel wrong tries from one address get exactly 10 × 401, the rest 429', async () => {
    const { space } = await protectedSpace('race-target', 'correct horse');
    const tries = await Promise.all(Array.from({ length: 200 }, (_, i) => unlock(space.id, `guess ${i}`, '192.0.2.66')));
    expect(statuses(tries)).toEqual({ 401: TRIES_PER_ADDRESS, 429: 200 - TRIES_PER_ADDRESS });
    const limited = tries.find((t) => t.status === 429)!;
    expect(limited.json.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // The address stays blocked, even with the right password; others are not.
    expect((await unlock(space.id, 'correct horse', '192.0.2.66')).status).toBe(429);
    expect((await unlock(space.id, 'correct horse', '192.0.2.67')).status).toBe(200);
  });

  it('gives a right password its try back, so a visitor who mistypes now and then is not blocked', async () => {
    const { space } = await protectedSpace('mistyper', 'open sesame');
    for (let i = 0; i < TRIES_PER_ADDRESS - 1; i++) expect((await unlock(space.id, 'open sesam', '192.0.2.70')).status).toBe(401);
    expect((await unlock(space.id, 'open sesame', '192.0.2.70')).status).toBe(200);
    // The right password did not use up the last try.
    expect((await unlock(space.id, 'open sesam', '192.0.2.70')).status).toBe(401);
    expect((await unlock(space.id, 'open sesam', '192.0.2.70')).status).toBe(429);
  });

  it('counts the IPv6 addresses of one /64 network together', async () => {
    const { space } = await protectedSpace('v6-target', 'pass word');
    for (let i = 1; i <= TRIES_PER_ADDRESS; i++) expect((await unlock(space.id, 'nope', `2001:db8:1:2::${i.toString(16)}`)).status).toBe(401);
    expect((await unlock(space.id, 'nope', '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await unlock(space.id, 'pass word', '2001:db8:1:3::1')).status).toBe(200);
  });

  it('after a burst of wrong guesses from many addresses, still checks the password of visitors who unlocked before, and of nobody else', async () => {
    const { space } = await protectedSpace('siege', 'the real one');
    const member = await signIn('siege-reader');
    expect((await unlock(space.id, 'the real one', '198.51.100.7')).status).toBe(200);
    expect((await unlock(space.id, 'the real one', '198.51.100.8', member.token)).status).toBe(200);

    const attackers = TRIES_PER_SPACE + 20;
    const burst = await Promise.all(Array.from({ length: attackers }, (_, i) => unlock(space.id, `guess ${i}`, `10.66.${i >> 8}.${i & 255}`)));
    expect(statuses(burst)).toEqual({ 401: TRIES_PER_SPACE, 429: attackers - TRIES_PER_SPACE });
    // Spreading guesses over addresses gains nothing more: a stranger's password is no longer checked.
    const stranger = await unlock(space.id, 'the real one', '203.0.113.99');
    expect(stranger.status).toBe(429);
    expect(stranger.json.error.message).toMatch(/tried on this space/);

    // Visitors who opened the space before get in with the right password, and are told when it is wrong.
    const returning = await unlock(space.id, 'the real one', '198.51.100.7');
    expect(returning.status).toBe(200);
    expect((await call(versionsRoute, 'GET', '', { params: { id: space.id }, headers: { 'x-space-token': returning.json.token } })).status).toBe(200);
    expect((await unlock(space.id, 'wrong', '198.51.100.7')).status).toBe(401);
    // A signed-in person is known wherever they come from.
    expect((await unlock(space.id, 'the real one', '203.0.113.200', member.token)).status).toBe(200);
  });
});

describe('view beacons', () => {
  async function site(handle: string) {
    const owner = await signIn(handle);
    const space = await makeSpace(owner.token, handle);
    await push(owner.token, space.id, { 'index.html': 'home', 'docs/index.html': 'docs', 'café.html': 'coffee' });
    return { owner, space };
  }
  const beacon = (id: string, body: unknown, peer: string) =>
    call(viewsRoute, 'POST', `/v1/spaces/${id}/views`, { body, params: { id }, headers: { [PEER_HEADER]: peer, 'user-agent': 'test' } });

  it(`records at most ${BEACONS_PER_MINUTE} a minute per space and address, then answers 429 with Retry-After`, async () => {
    const { space } = await site('beaconed');
    const sent = await Promise.all(Array.from({ length: 300 }, () => beacon(space.id, { path: '/' }, '192.0.2.80')));
    expect(statuses(sent)).toEqual({ 204: BEACONS_PER_MINUTE, 429: 300 - BEACONS_PER_MINUTE });
    const limited = sent.find((s) => s.status === 429)!;
    expect(limited.json.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    await flushViews();
    expect(await db.spaceView.count({ where: { spaceId: space.id } })).toBe(BEACONS_PER_MINUTE);
    // Another visitor is still counted.
    expect((await beacon(space.id, { path: '/' }, '192.0.2.81')).status).toBe(204);
    await flushViews();
    expect(await db.spaceView.count({ where: { spaceId: space.id } })).toBe(BEACONS_PER_MINUTE + 1);
  });

  it("stores only the version's own pages and the referrer's host", async () => {
    const { space } = await site('bounded');
    const sent = [
      { path: '/', referrer: 'https://news.example.com/item?id=1&secret=x' },
      { path: '/docs', referrer: 'javascript:alert(1)' },
      { path: '/caf%C3%A9.html?utm=x#top', referrer: `https://${'a'.repeat(300)}.example/` },
      { path: '/docs/', version: 1, referrer: 'not a url' },
      { path: '/buy-cheap-pills-here', referrer: 'https://spam.example/' },
      { path: '/../../etc/passwd' },
      { path: '/', version: 2 },
      { path: '/%E0%A4%A' },
    ];
    for (const body of sent) expect((await beacon(space.id, body, '192.0.2.90')).status).toBe(204);
    await flushViews();
    const rows = await db.spaceView.findMany({ where: { spaceId: space.id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.path, r.version, r.referrer])).toEqual([
      ['/', null, 'news.example.com'],
      ['/docs/', null, null],
      ['/café.html', null, null],
      ['/docs/', 1, null],
    ]);
  });
});

describe('a caller who unlocked a space but cannot push', () => {
  it('is forbidden (403) the visitor statistics and push planning, not asked to unlock again (401)', async () => {
    const { space } = await protectedSpace('guarded-stats', 'visitors only');
    const stranger = await signIn('curious-stranger');
    const opened = await unlock(space.id, 'visitors only', '192.0.2.100');
    expect(opened.status).toBe(200);
    const headers = { 'x-space-token': opened.json.token };
    const stats = await call(visitorsRoute, 'GET', '', { token: stranger.token, headers, params: { id: space.id } });
    expect(stats.status).toBe(403);
    expect(stats.json.error.code).toBe('forbidden');
    const plan = await call(planRoute, 'POST', '', { token: stranger.token, headers, body: { files: fileList({ 'x.txt': 'x' }) }, params: { id: space.id } });
    expect(plan.status).toBe(403);
    // Unlocking is still what opens the content.
    expect((await call(versionsRoute, 'GET', '', { token: stranger.token, params: { id: space.id } })).status).toBe(401);
    expect((await call(versionsRoute, 'GET', '', { token: stranger.token, headers, params: { id: space.id } })).status).toBe(200);
  });
});
