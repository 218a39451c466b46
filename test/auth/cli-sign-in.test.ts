import { describe, expect, it } from 'vitest';
import { POST as decideRoute } from '@/app/v1/auth/cli/decide/route.ts';
import { POST as pollRoute } from '@/app/v1/auth/cli/poll/route.ts';
import { GET as requestRoute } from '@/app/v1/auth/cli/requests/[userCode]/route.ts';
import { POST as startRoute } from '@/app/v1/auth/cli/start/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { GET as tokensRoute } from '@/app/v1/tokens/route.ts';
import { normalizeUserCode, PENDING_OVERALL } from '@/lib/auth/cli-sign-in.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { call, signIn } from '../helpers.ts';

let address = 0;
/** Each test starts from an address of its own, so per-address limits do not leak between tests. */
const freshAddress = () => `192.0.2.${++address}`;

async function start(body: unknown = {}, headers: Record<string, string> = { [PEER_HEADER]: freshAddress() }) {
  return call(startRoute, 'POST', '/v1/auth/cli/start', { body, headers });
}

const poll = (deviceCode: string) => call(pollRoute, 'POST', '/v1/auth/cli/poll', { body: { deviceCode } });
const decide = (token: string, userCode: string, approve: boolean) =>
  call(decideRoute, 'POST', '/v1/auth/cli/decide', { token, body: { userCode, approve } });
const view = (token: string, userCode: string) =>
  call(requestRoute, 'GET', `/v1/auth/cli/requests/${userCode}`, { token, params: { userCode } });

/** Lets the next poll be on time without waiting the interval out. */
async function rewindPoll(userCode: string) {
  await db.cliSignIn.update({ where: { userCode }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });
}

describe('POST /v1/auth/cli/start', () => {
  it('hands out a secret device code, a short user code and where to approve it', async () => {
    const { status, json } = await start({ label: 'laptop' });
    expect(status).toBe(200);
    expect(json).toEqual({
      deviceCode: expect.stringMatching(/^atrd_[A-Za-z0-9_-]{43}$/),
      userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verificationUrl: `http://localhost:3000/device?code=${json.userCode}`,
      expiresIn: 900,
      interval: 5,
    });
    const stored = await db.cliSignIn.findUniqueOrThrow({ where: { userCode: json.userCode } });
    expect(JSON.stringify(stored)).not.toContain(json.deviceCode);
    expect(stored).toMatchObject({ label: 'laptop', status: 'pending' });
  });

  it('refuses a label over 60 characters', async () => {
    const { status, json } = await start({ label: 'x'.repeat(61) });
    expect(status).toBe(400);
    expect(json.error.message).toMatch(/^body\.label/);
  });

  it('answers 429 past 10 pending requests from one address, while others may still start', async () => {
    const ip = freshAddress();
    for (let i = 0; i < 10; i++) expect((await start({}, { [PEER_HEADER]: ip })).status).toBe(200);
    const eleventh = await start({}, { [PEER_HEADER]: ip });
    expect(eleventh.status).toBe(429);
    expect(eleventh.json.error.code).toBe('rate_limited');
    expect((await start()).status).toBe(200);
    // A request that is no longer pending frees a place.
    await db.cliSignIn.updateMany({ where: { ip }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await start({}, { [PEER_HEADER]: ip })).status).toBe(200);
  });

  it('answers 429 past 500 pending requests overall', async () => {
    const now = Date.now();
    const current = await db.cliSignIn.count({ where: { status: 'pending', expiresAt: { gt: new Date() } } });
    await db.cliSignIn.createMany({
      data: Array.from({ length: PENDING_OVERALL - current }, (_, i) => ({
        id: `cli_bulk${i}`,
        userCode: `BULK-${String(i).padStart(4, '0')}`,
        deviceCodeHash: `bulk${i}`,
        ip: `198.51.100.${i % 250}`,
        interval: 5,
        expiresAt: new Date(now + 60_000),
      })),
    });
    const { status, json } = await start();
    expect(status).toBe(429);
    expect(json.error.code).toBe('rate_limited');
    await db.cliSignIn.deleteMany({ where: { id: { startsWith: 'cli_bulk' } } });
  });

  it('counts requests from unknown addresses together', async () => {
    for (let i = 0; i < 10; i++) expect((await start({}, {})).status).toBe(200);
    expect((await start({}, {})).status).toBe(429);
    expect((await start()).status).toBe(200);
  });

  it('removes requests a day after they expired; their device code is then unknown (404)', async () => {
    const { json: old } = await start();
    await db.cliSignIn.update({ where: { userCode: old.userCode }, data: { expiresAt: new Date(Date.now() - 23 * 3600_000) } });
    await start();
    expect((await poll(old.deviceCode)).status).toBe(410);
    await db.cliSignIn.update({ where: { userCode: old.userCode }, data: { expiresAt: new Date(Date.now() - 25 * 3600_000) } });
    await start();
    expect((await poll(old.deviceCode)).status).toBe(404);
  });

  it('records the user agent, and where from only behind a trusted proxy', async () => {
    const headers = { [PEER_HEADER]: freshAddress(), 'user-agent': 'atrium-cli/1.0 (linux)', 'x-vercel-ip-city': 'S%C3%A3o%20Paulo', 'x-vercel-ip-country': 'BR' };
    const untrusted = await start({}, headers);
    const { token } = await signIn('viewer', 'web');
    expect((await view(token, untrusted.json.userCode)).json).toMatchObject({ requestedFrom: null, userAgent: 'atrium-cli/1.0 (linux)', label: null });
    config.trustProxy = true;
    try {
      const trusted = await start({}, { ...headers, 'x-forwarded-for': '203.0.113.9' });
      expect((await view(token, trusted.json.userCode)).json.requestedFrom).toEqual({ city: 'São Paulo', country: 'BR' });
      expect((await db.cliSignIn.findUniqueOrThrow({ where: { userCode: trusted.json.userCode } })).ip).toBe('203.0.113.9');
    } finally {
      config.trustProxy = false;
    }
  });
});

describe('the approve path', () => {
  it('polls 202 while pending, then hands out a working API token exactly once', async () => {
    const { json: started } = await start({ label: 'work laptop' });
    const pending = await poll(started.deviceCode);
    expect(pending.status).toBe(202);
    expect(pending.json).toEqual({ status: 'pending' });

    const { token: session, user } = await signIn('alice', 'web');
    const shown = await view(session, started.userCode);
    expect(shown.status).toBe(200);
    expect(shown.json).toEqual({
      userCode: started.userCode,
      label: 'work laptop',
      createdAt: expect.any(Number),
      expiresAt: expect.any(Number),
      status: 'pending',
      requestedFrom: null,
      userAgent: null,
    });
    expect(shown.json.expiresAt - shown.json.createdAt).toBe(900_000);

    const decided = await decide(session, started.userCode, true);
    expect(decided.status).toBe(204);
    expect(decided.text).toBe('');

    const approved = await poll(started.deviceCode);
    expect(approved.status).toBe(200);
    expect(approved.json).toEqual({ status: 'approved', token: expect.stringMatching(/^atr_/), user: { id: user.id, handle: 'alice', name: null } });
    const me = await call(meRoute, 'GET', '/v1/me', { token: approved.json.token });
    expect(me.json.user.handle).toBe('alice');
    const listed = await call(tokensRoute, 'GET', '/v1/tokens', { token: approved.json.token });
    expect(listed.json.tokens.find((t: { current: boolean }) => t.current)).toMatchObject({ label: 'work laptop' });

    // Handed out once: a second poll learns the request is used up.
    const again = await poll(started.deviceCode);
    expect(again.status).toBe(410);
    expect(again.json.error.code).toBe('gone');
    expect(await db.token.count({ where: { userId: user.id, kind: 'api' } })).toBe(1);
    expect((await view(session, started.userCode)).json.status).toBe('approved');
  });

  it('hands out one token when two polls race for it', async () => {
    const { json: started } = await start();
    const { token: session, user } = await signIn('racer', 'web');
    await decide(session, started.userCode, true);
    const results = await Promise.all([poll(started.deviceCode), poll(started.deviceCode), poll(started.deviceCode)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410]);
    expect(await db.token.count({ where: { userId: user.id, kind: 'api' } })).toBe(1);
  });

  it('accepts the user code typed in lower case, with spaces or without the dash', async () => {
    const { json: started } = await start();
    const { token } = await signIn('typist', 'web');
    const loose = started.userCode.toLowerCase().replace('-', ' ');
    expect((await view(token, loose)).status).toBe(200);
    expect(normalizeUserCode(started.userCode.replace('-', ''))).toBe(started.userCode);
    expect(normalizeUserCode('AEIO-0000')).toBeNull();
  });
});

describe('the deny path and other endings', () => {
  it('answers 403 to the poll once denied', async () => {
    const { json: started } = await start();
    const { token } = await signIn('bob', 'web');
    expect((await decide(token, started.userCode, false)).status).toBe(204);
    const denied = await poll(started.deviceCode);
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('forbidden');
    expect((await view(token, started.userCode)).json.status).toBe('denied');
  });

  it('answers 410 to the poll and to decide once expired, and shows it as expired', async () => {
    const { json: started } = await start();
    await db.cliSignIn.update({ where: { userCode: started.userCode }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await poll(started.deviceCode)).status).toBe(410);
    const { token } = await signIn('carol', 'web');
    expect((await view(token, started.userCode)).json.status).toBe('expired');
    const late = await decide(token, started.userCode, true);
    expect(late.status).toBe(410);
    expect(late.json.error.code).toBe('gone');
  });

  it('answers 409 when deciding twice', async () => {
    const { json: started } = await start();
    const { token } = await signIn('dave', 'web');
    await decide(token, started.userCode, false);
    const second = await decide(token, started.userCode, true);
    expect(second.status).toBe(409);
    expect((await poll(started.deviceCode)).status).toBe(403);
  });

  it('answers 404 for an unknown device code and an unknown user code', async () => {
    expect((await poll('atrd_nope')).status).toBe(404);
    const { token } = await signIn('erin', 'web');
    expect((await view(token, 'BCDF-GHJK')).status).toBe(404);
    expect((await view(token, 'not a code')).status).toBe(404);
    expect((await decide(token, 'BCDF-GHJK', true)).status).toBe(404);
  });

  it('hides a decided request from everyone but the person who decided it', async () => {
    const { json: started } = await start();
    const alice = await signIn('frank', 'web');
    const mallory = await signIn('mallory', 'web');
    await decide(alice.token, started.userCode, true);
    expect((await view(mallory.token, started.userCode)).status).toBe(404);
    expect((await decide(mallory.token, started.userCode, false)).status).toBe(404);
    expect((await poll(started.deviceCode)).status).toBe(200);
  });
});

describe('who may look and decide', () => {
  it('gives API tokens 403 on decide and on viewing a request, and anonymous callers 401', async () => {
    const { json: started } = await start();
    const { token: apiToken } = await signIn('grace', 'cli');
    const decided = await decide(apiToken, started.userCode, true);
    expect(decided.status).toBe(403);
    expect(decided.json.error.code).toBe('forbidden');
    expect((await view(apiToken, started.userCode)).status).toBe(403);
    expect((await call(decideRoute, 'POST', '/v1/auth/cli/decide', { body: { userCode: started.userCode, approve: true } })).status).toBe(401);
    expect((await poll(started.deviceCode)).status).toBe(202);
  });

  it('accepts the web session cookie for decide', async () => {
    const { json: started } = await start();
    const { token } = await signIn('heidi', 'web');
    const decided = await call(decideRoute, 'POST', '/v1/auth/cli/decide', {
      cookie: `atrium_session=${token}`,
      body: { userCode: started.userCode, approve: true },
    });
    expect(decided.status).toBe(204);
  });
});

describe('polling faster than the interval', () => {
  it('answers 429 with Retry-After and adds 5 seconds to the interval each time (RFC 8628 slow_down)', async () => {
    const { json: started } = await start();
    expect((await poll(started.deviceCode)).status).toBe(202);
    const early = await poll(started.deviceCode);
    expect(early.status).toBe(429);
    expect(early.json.error.code).toBe('rate_limited');
    expect(early.headers.get('retry-after')).toBe('10');
    const earlier = await poll(started.deviceCode);
    expect(earlier.headers.get('retry-after')).toBe('15');

    await rewindPoll(started.userCode);
    expect((await poll(started.deviceCode)).status).toBe(202);
    const stored = await db.cliSignIn.findUniqueOrThrow({ where: { userCode: started.userCode } });
    expect(stored.interval).toBe(15);
  });

  it('lets the approved token through even right after a pending poll', async () => {
    const { json: started } = await start();
    expect((await poll(started.deviceCode)).status).toBe(202);
    const { token } = await signIn('ivan', 'web');
    await decide(token, started.userCode, true);
    expect((await poll(started.deviceCode)).status).toBe(200);
  });
});
