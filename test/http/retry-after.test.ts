// Every 429 the service answers says when to come back (Retry-After), on
// every surface it leaves by: the API, a site's password form, a live app's
// join-code form and its tables, the room socket's upgrade. The limits are
// read from the code: a new rate limit, or a new place that answers 429,
// fails the first test until it has a case here.
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRateLimits, rateLimit } from '@/lib/core/rate-limit.ts';
import { liveAppUrl } from '@/lib/spaces/hosts.ts';
import { createRealtime, ROOM_FULL_RETRY_SECONDS, type Realtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import { bookClub, writeRoom } from '../apps/helpers.ts';
import { openRaw, RawRefusal, type RawClient } from '../rooms/raw-client.ts';
import { ticketUrl } from '../rooms/socket-helpers.ts';
import { onPort, rawRequest, type RawAnswer } from './raw.ts';
import { World } from './world.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Every request of this test comes from here (World trusts X-Forwarded-For, raw requests are from the peer).
const ADDRESS = '127.0.0.1';
const from = { 'x-forwarded-for': ADDRESS };

/** Every source file of the server: where limits are declared and 429s answered. */
function sources(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        // The generated Prisma client, and the API client (which reads 429s, never answers them).
        if (relative !== 'lib/db/generated' && relative !== 'lib/client') walk(relative);
      } else if (/\.tsx?$/.test(entry.name)) files.push(relative);
    }
  };
  for (const folder of ['app', 'lib', 'realtime', 'server']) walk(folder);
  return files;
}

/** How each declared limit answers once over. */
const LIMITS: Record<string, 'checked below' | string> = {
  search: 'checked below',
  'room-mention-author': 'checked below',
  'room-history': 'checked below',
  'guest-comment': 'checked below',
  'view-beacon': 'checked below',
  'unlock-address': 'checked below',
  'unlock-space': 'checked below',
  'spacedb-guest-write': 'checked below',
  'app-join-code': 'checked below',
  'app-rows-address': 'checked below',
  'app-rows-app': 'checked below',
  'domain-verify': 'checked below',
  'room-mention': 'never refuses: only remembers who was told (penalize)',
  'unlock-known': 'never refuses: only remembers who unlocked (penalize)',
  'ai-suggest': 'never an HTTP answer: a room drafts without AI, a socket gets an ai.error message',
};

/** Each file that names the rate_limited code, how often, and why. */
const REFUSALS: Record<string, [count: number, why: string]> = {
  'lib/core/errors.ts': [4, 'the code itself, whose ApiError and errorResponse require a Retry-After by their types'],
  'lib/core/rate-limit.ts': [2, "every limit's 429 (a comment and the throw)"],
  'lib/auth/cli-sign-in.ts': [3, 'pending sign-ins per address and overall, polling too fast: checked below'],
  'lib/spacedb/database.ts': [7, 'the type of an admission limit, jobs in flight per owner, space and for visitors, writes, restores per person: test/spacedb/fairness.test.ts and isolation.test.ts hold them'],
  'lib/spaces/serving.ts': [1, 'the password form: checked below'],
  'lib/apps/serving.ts': [3, 'the join-code form and the tables: checked below'],
  'realtime/server.ts': [3, 'a full room (the refusal helper excludes the code), and its count in /metrics: checked below'],
};

const front = createFrontServer();
let realtime: Realtime;
let socketServer: ReturnType<typeof createFrontServer>;
let socketOrigin = '';
let w: World;
const sockets: RawClient[] = [];

// Each limit's name and the file that declares it; each file naming the code, and how often.
const declaredIn = new Map<string, string>();
const refusals: Record<string, number> = {};
for (const file of sources()) {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  for (const [, name] of text.matchAll(/\brateLimit\(\{\s*name:\s*'([\w.-]+)'/g)) declaredIn.set(name, file);
  const count = text.match(/'rate_limited'/g)?.length ?? 0;
  if (count) refusals[file] = count;
}

beforeAll(async () => {
  // Loaded now, each limit's module declares it (the first test checks that they all do).
  for (const file of new Set(declaredIn.values())) await import(path.join(ROOT, file));
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  w = await new World(`http://127.0.0.1:${(front.address() as AddressInfo).port}`, 'ra').build();
  realtime = createRealtime({ name: 'retry-after', maxRoomConnections: 1 });
  socketServer = createFrontServer({ upgrades: realtime.handleUpgrade });
  await new Promise<void>((resolve) => socketServer.listen(0, '127.0.0.1', resolve));
  socketOrigin = `http://127.0.0.1:${(socketServer.address() as AddressInfo).port}`;
  await realtime.ready;
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await realtime?.stop();
  for (const server of [front, socketServer]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

/** Uses up `name`'s count for `key`, so that the next request is over it. */
async function exhaust(name: string, key: string) {
  const spec = declaredRateLimits().get(name)!;
  await rateLimit(spec).penalize(key, spec.points);
}

function expectRetryAfter(answer: { status: number; headers: Record<string, string | string[] | undefined> }, most: number) {
  expect(answer.status).toBe(429);
  const seconds = Number(answer.headers['retry-after']);
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= most, `Retry-After ${answer.headers['retry-after']}`).toBe(true);
}

const over = (name: string) => declaredRateLimits().get(name)!.duration;

describe('Retry-After on every 429', () => {
  it('knows every rate limit and every place that answers 429 in the code', async () => {
    expect([...declaredIn.keys()].filter((name) => !(name in LIMITS)), 'limits without a case in this test').toEqual([]);
    expect(Object.keys(LIMITS).filter((name) => !declaredIn.has(name)), 'cases of limits the code no longer has').toEqual([]);
    expect(refusals).toEqual(Object.fromEntries(Object.entries(REFUSALS).map(([file, [count]]) => [file, count])));
    // What the source declares is what runs.
    expect([...declaredRateLimits().keys()].filter((name) => name in LIMITS).sort()).toEqual(Object.keys(LIMITS).sort());
  });

  it('on the API: search, mentions, page history, guest comments, view beacons, unlocking, guest database writes, domain verification', async () => {
    const { owner, member } = w.people;
    await exhaust('search', member.id);
    expectRetryAfter(await w.call('GET', '/v1/search', { as: member, query: { q: 'guide' }, headers: from }), over('search'));

    await exhaust('room-mention-author', owner.id);
    expectRetryAfter(await w.call('POST', `/v1/rooms/${w.rooms.room}/mentions`, { as: owner, body: { handle: member.handle, pageId: 'p1' }, headers: from }), over('room-mention-author'));

    const pageId = await w.roomPage('room');
    await exhaust('room-history', owner.id);
    expectRetryAfter(await w.call('POST', `/v1/rooms/${w.rooms.room}/pages/${pageId}/history`, { as: owner, body: { name: 'Kept' }, headers: from }), over('room-history'));

    const open = w.spaces.public;
    await w.must(200, 'PATCH', `/v1/spaces/${open}`, { as: owner, body: { guestComments: true } });
    await exhaust('guest-comment', ADDRESS);
    const guest = { name: 'Ann', key: 'k'.repeat(32) };
    expectRetryAfter(await w.call('POST', `/v1/spaces/${open}/comments`, { body: { path: 'docs/guide.md', body: 'Hello', guest }, headers: from }), over('guest-comment'));

    await exhaust('view-beacon', `${open}:${ADDRESS}`);
    expectRetryAfter(await w.call('POST', `/v1/spaces/${open}/views`, { body: { path: '/index.html' }, headers: from }), over('view-beacon'));

    const locked = w.spaces.password;
    await exhaust('unlock-address', `${locked}:${ADDRESS}`);
    expectRetryAfter(await w.call('POST', `/v1/spaces/${locked}/unlock`, { body: { password: 'guess' }, headers: from }), over('unlock-address'));
    const spare = await w.spareSpace('password');
    await exhaust('unlock-space', spare);
    expectRetryAfter(await w.call('POST', `/v1/spaces/${spare}/unlock`, { body: { password: 'guess' }, headers: from }), over('unlock-space'));

    await w.must(200, 'POST', `/v1/spaces/${open}/db/query`, { as: owner, body: { sql: 'CREATE TABLE hits (n INTEGER)', write: true } });
    await w.must(200, 'PUT', `/v1/spaces/${open}/db/guest-writes`, { as: owner, body: { statements: [{ name: 'hit', sql: 'INSERT INTO hits VALUES (1)' }] } });
    await w.must(200, 'PATCH', `/v1/spaces/${open}`, { as: owner, body: { guestWrites: true } });
    await exhaust('spacedb-guest-write', ADDRESS);
    expectRetryAfter(await w.call('POST', `/v1/spaces/${open}/db/query`, { body: { sql: 'hit', write: true, guest: {} }, headers: from }), over('spacedb-guest-write'));

    await w.must(200, 'POST', `/v1/spaces/${open}/domains`, { as: owner, body: { hostname: 'docs.retry-after.test' } });
    await exhaust('domain-verify', owner.id);
    expectRetryAfter(await w.call('POST', `/v1/spaces/${open}/domains/docs.retry-after.test/verify`, { as: owner, headers: from }), over('domain-verify'));
  });

  it("on a site's password form", async () => {
    const locked = await w.spareSpace('password');
    const { url } = await w.must(200, 'GET', `/v1/spaces/${locked}`, { as: w.people.owner });
    await exhaust('unlock-address', `${locked}:${ADDRESS}`);
    const site = new URL(url);
    const body = 'password=guess';
    const answer = await rawRequest(onPort(url, w.origin), 'POST', site.pathname, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(answer.text).toContain('Too many wrong passwords');
    expectRetryAfter(answer, over('unlock-address'));
  });

  it("on a live app's join-code form and its tables", async () => {
    const coded = await w.must(200, 'GET', `/v1/apps/${w.app}`, { as: w.people.owner });
    await exhaust('app-join-code', `${w.app}:${ADDRESS}`);
    const form = await rawRequest(onPort(liveAppUrl(coded.slug), w.origin), 'POST', '/', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'code=WRONG' });
    expect(form.text).toContain('Too many wrong codes');
    expectRetryAfter(form, over('app-join-code'));

    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Sign-up room' } });
    await writeRoom(room.id, bookClub());
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} });
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public' } });
    const row = (): Promise<RawAnswer> => {
      const body = JSON.stringify({ values: { Name: 'Flood' } });
      return rawRequest(onPort(liveAppUrl(app.slug), w.origin), 'POST', '/_api/tables/sign_up', { headers: { 'content-type': 'application/json' }, body });
    };
    await exhaust('app-rows-address', `${app.id}:${ADDRESS}`);
    const perAddress = await row();
    expect(perAddress.json.error.code).toBe('rate_limited');
    expectRetryAfter(perAddress, over('app-rows-address'));
    await rateLimit(declaredRateLimits().get('app-rows-address')!).reset(`${app.id}:${ADDRESS}`);
    await exhaust('app-rows-app', app.id);
    expectRetryAfter(await row(), over('app-rows-app'));
  });

  it('for command-line sign-ins: pending per address, and polling too fast', async () => {
    const starts: RawAnswer[] = [];
    for (let i = 0; i < 11 && starts.at(-1)?.status !== 429; i++) starts.push(await w.call('POST', '/v1/auth/cli/start', { body: { label: 'laptop' }, headers: from }));
    // Full until the first pending sign-in expires, a few minutes at most.
    expectRetryAfter(starts.at(-1)!, 15 * 60);
    const { deviceCode } = starts[0].json;
    await w.call('POST', '/v1/auth/cli/poll', { body: { deviceCode }, headers: from });
    expectRetryAfter(await w.call('POST', '/v1/auth/cli/poll', { body: { deviceCode }, headers: from }), 60);
  });

  it("on a full room's socket upgrade", async () => {
    const room = w.rooms.room;
    sockets.push(await openRaw(await ticketUrl(w, w.people.owner, room, 'rooms', socketOrigin), room, { authenticate: false }));
    const refusal = await openRaw(await ticketUrl(w, w.people.owner, room, 'rooms', socketOrigin), room, { authenticate: false }).then(
      (client) => {
        sockets.push(client);
        return null;
      },
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(RawRefusal);
    expectRetryAfter(refusal as RawRefusal, ROOM_FULL_RETRY_SECONDS);
  });
});
