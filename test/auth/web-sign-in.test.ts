// Web sign-in through next-auth's endpoints, with e-mail going to a local SMTP server.
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...nextauth]/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { GET as tokensRoute } from '@/app/v1/tokens/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn, useSmtpServer } from '../helpers.ts';
import { mailText } from '../smtp-server.ts';

const smtp = useSmtpServer();
afterEach(() => vi.restoreAllMocks());

/** A browser's cookie jar, enough for next-auth's cookies. */
class Browser {
  cookies = new Map<string, string>();

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const init: { method: string; headers: Headers; body?: string } = { method, headers: new Headers(headers) };
    if (this.cookies.size) init.headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (form) {
      init.body = new URLSearchParams(form).toString();
      init.headers.set('content-type', 'application/x-www-form-urlencoded');
    }
    const request = new NextRequest(new URL(path, 'http://localhost:3000'), init);
    const response = await (method === 'GET' ? authGet : authPost)(request);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || pair.slice(eq + 1) === '') this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
    return response;
  }

  async csrf(): Promise<string> {
    const response = await this.request('GET', '/api/auth/csrf');
    return (await response.json()).csrfToken;
  }

  async requestLink(email: string, callbackUrl = '/', headers: Record<string, string> = {}) {
    const csrfToken = await this.csrf();
    return this.request('POST', '/api/auth/signin/email', { email, csrfToken, callbackUrl }, headers);
  }

  get session(): string | undefined {
    return this.cookies.get('atrium_session');
  }
}

/** The sign-in link of the latest e-mail to `address`, and the one-time callback it leads to. */
function latestLink(address: string) {
  const mail = smtp.mails.filter((m) => m.to.some((to) => to.includes(address))).at(-1);
  if (!mail) throw new Error(`no e-mail to ${address}`);
  const link = /http:\/\/localhost:3000\/signin\/confirm\?[^\s"<]+/.exec(mailText(mail))![0].replaceAll('&amp;', '&');
  const url = new URL(link);
  const callback = `/api/auth/callback/email?${url.searchParams}`;
  return { link: url, callback };
}

describe('sign-in by e-mail link', () => {
  it('e-mails a link that signs a new person in once, creating their account and a web session', async () => {
    const browser = new Browser();
    const sent = await browser.requestLink('Ada.Lovelace@Example.com', '/device?code=BCDF-GHJK');
    expect(sent.status).toBe(302);
    const verify = await browser.request('GET', sent.headers.get('location')!);
    expect(verify.headers.get('location')).toMatch(/^\/signin\/check-email\?/);
    expect(smtp.mails.at(-1)!.to).toEqual(['<ada.lovelace@example.com>']);
    expect(mailText(smtp.mails.at(-1)!)).toContain('It works once, for 30 minutes');

    const { link, callback } = latestLink('ada.lovelace@example.com');
    expect(link.searchParams.get('callbackUrl')).toBe('http://localhost:3000/device?code=BCDF-GHJK');
    const stored = await db.emailSignIn.findFirstOrThrow({ where: { email: 'ada.lovelace@example.com' } });
    expect(stored.tokenHash).not.toContain(link.searchParams.get('token'));
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);

    const signedIn = await browser.request('GET', callback);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('http://localhost:3000/device?code=BCDF-GHJK');
    expect(browser.session).toMatch(/^atrs_/);

    const me = await call(meRoute, 'GET', '/v1/me', { cookie: `atrium_session=${browser.session}` });
    expect(me.status).toBe(200);
    expect(me.json.user).toMatchObject({ handle: 'ada-lovelace' });
    expect(me.json.workspaces).toEqual([expect.objectContaining({ slug: 'ada-lovelace', role: 'owner' })]);
    // The session is a web session: listed as the current one, stored hashed.
    const tokens = await call(tokensRoute, 'GET', '/v1/tokens', { token: browser.session });
    expect(tokens.json.tokens).toEqual([expect.objectContaining({ label: 'web', current: true })]);
    expect(await db.token.count({ where: { kind: 'web', hash: browser.session } })).toBe(0);

    // Single use: the same link again signs nobody in.
    const other = new Browser();
    const reused = await other.request('GET', callback);
    expect(reused.headers.get('location')).toContain('/signin?error=Verification');
    expect(other.session).toBeUndefined();
  });

  it('signs an existing person in to their account, and picks a free handle for a new one', async () => {
    const { user } = await signIn('grace');
    await db.user.update({ where: { id: user.id }, data: { email: 'grace@example.com' } });
    const browser = new Browser();
    await browser.requestLink('grace@example.com');
    await browser.request('GET', latestLink('grace@example.com').callback);
    expect((await call(meRoute, 'GET', '/v1/me', { token: browser.session })).json.user.id).toBe(user.id);

    const newcomer = new Browser();
    await newcomer.requestLink('grace@elsewhere.example');
    await newcomer.request('GET', latestLink('grace@elsewhere.example').callback);
    expect((await call(meRoute, 'GET', '/v1/me', { token: newcomer.session })).json.user.handle).toBe('grace-2');
  });

  it('refuses an expired link', async () => {
    const browser = new Browser();
    await browser.requestLink('late@example.com');
    await db.emailSignIn.updateMany({ where: { email: 'late@example.com' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await browser.request('GET', latestLink('late@example.com').callback);
    expect(response.headers.get('location')).toContain('/signin?error=Verification');
    expect(browser.session).toBeUndefined();
    expect(await db.user.count({ where: { email: 'late@example.com' } })).toBe(0);
  });

  it('builds the link on PUBLIC_URL whatever Host the request claims', async () => {
    const browser = new Browser();
    await browser.requestLink('host@example.com', '/', { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    const text = mailText(smtp.mails.at(-1)!);
    expect(text).not.toContain('evil.example');
    expect(latestLink('host@example.com').link.origin).toBe('http://localhost:3000');
  });

  it('refuses a sign-in request without the CSRF token', async () => {
    const before = smtp.mails.length;
    const response = await new Browser().request('POST', '/api/auth/signin/email', { email: 'csrf@example.com' });
    expect(response.headers.get('location')).toContain('error=MissingCSRF');
    expect(smtp.mails.length).toBe(before);
  });

  it('writes the link to the server log when SMTP_URL is not set', async () => {
    config.smtpUrl = undefined;
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await new Browser().requestLink('selfhost@example.com');
    } finally {
      config.smtpUrl = smtp.url;
    }
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.msg.startsWith('sign-in link'));
    expect(entry).toMatchObject({ email: 'selfhost@example.com', url: expect.stringMatching(/^http:\/\/localhost:3000\/signin\/confirm\?token=/) });
    const browser = new Browser();
    const url = new URL(entry.url);
    await browser.request('GET', `/api/auth/callback/email?${url.searchParams}`);
    expect(browser.session).toMatch(/^atrs_/);
  });
});

describe('the sign-in secret', () => {
  it('is generated once and kept in the database when AUTH_SECRET is unset, so instances share it', async () => {
    expect(config.authSecret).toBeUndefined();
    await new Browser().csrf();
    const stored = await db.serverSecret.findMany();
    expect(stored).toEqual([expect.objectContaining({ name: 'auth', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })]);
    await new Browser().csrf();
    expect(await db.serverSecret.findMany()).toEqual(stored);
  });
});

describe('sign-out', () => {
  it('ends the web session on the server and clears the cookie', async () => {
    const browser = new Browser();
    await browser.requestLink('leaving@example.com');
    await browser.request('GET', latestLink('leaving@example.com').callback);
    const session = browser.session!;
    const csrfToken = await browser.csrf();
    const response = await browser.request('POST', '/api/auth/signout', { csrfToken, callbackUrl: '/' });
    expect(response.status).toBe(302);
    expect(browser.session).toBeUndefined();
    expect((await call(meRoute, 'GET', '/v1/me', { token: session })).status).toBe(401);
  });

  it('also ends a development sign-in session', async () => {
    const { token } = await signIn('dev-user', 'web');
    const browser = new Browser();
    browser.cookies.set('atrium_session', token);
    const csrfToken = await browser.csrf();
    await browser.request('POST', '/api/auth/signout', { csrfToken, callbackUrl: '/' });
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(401);
  });
});

describe('sign-in with GitHub (against a fake GitHub in the test process)', () => {
  type FakeAccount = { id: number; login: string; name: string | null; email: string | null };
  let account: FakeAccount;

  // Answers the requests next-auth makes to GitHub after the browser comes back.
  function fakeGitHub() {
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.href === 'https://github.com/login/oauth/access_token') {
        return Response.json({ access_token: 'gho_fake', token_type: 'bearer', scope: 'read:user,user:email' });
      }
      if (url.href === 'https://api.github.com/user') return Response.json(account);
      if (url.href === 'https://api.github.com/user/emails') return Response.json([{ email: 'private@example.com', primary: true }]);
      return realFetch(input, init);
    });
  }

  async function signInWithGitHub(browser: Browser) {
    const csrfToken = await browser.csrf();
    const started = await browser.request('POST', '/api/auth/signin/github', { csrfToken, callbackUrl: '/settings' });
    const authorize = new URL(started.headers.get('location')!);
    expect(authorize.origin + authorize.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/callback/github');
    // GitHub sends the browser back with a code (and the state, when next-auth sent one).
    const back = new URLSearchParams({ code: 'fake-code' });
    if (authorize.searchParams.get('state')) back.set('state', authorize.searchParams.get('state')!);
    return browser.request('GET', `/api/auth/callback/github?${back}`);
  }

  beforeAll(() => {
    config.github = { clientId: 'fake-id', clientSecret: 'fake-secret' };
  });
  afterAll(() => {
    config.github = null;
  });

  it('creates an account named after the GitHub login, and signs the same person in again later', async () => {
    fakeGitHub();
    account = { id: 4242, login: 'Octo-Cat', name: 'The Octocat', email: 'octo@example.com' };
    const first = new Browser();
    const done = await signInWithGitHub(first);
    expect(done.headers.get('location')).toBe('http://localhost:3000/settings');
    const me = await call(meRoute, 'GET', '/v1/me', { token: first.session });
    expect(me.json.user).toMatchObject({ handle: 'octo-cat', name: 'The Octocat' });
    expect(await db.oAuthAccount.findMany()).toEqual([expect.objectContaining({ provider: 'github', providerAccountId: '4242', userId: me.json.user.id })]);

    const again = new Browser();
    await signInWithGitHub(again);
    expect((await call(meRoute, 'GET', '/v1/me', { token: again.session })).json.user.id).toBe(me.json.user.id);
  });

  it('refuses to attach a GitHub account to an existing account by its e-mail address', async () => {
    fakeGitHub();
    const { user } = await signIn('owner-of-address');
    await db.user.update({ where: { id: user.id }, data: { email: 'taken@example.com' } });
    account = { id: 777, login: 'someone', name: null, email: 'taken@example.com' };
    const browser = new Browser();
    const response = await signInWithGitHub(browser);
    expect(response.headers.get('location')).toContain('/signin?error=OAuthAccountNotLinked');
    expect(browser.session).toBeUndefined();
    expect(await db.oAuthAccount.count({ where: { providerAccountId: '777' } })).toBe(0);
  });

  it('is not offered when GitHub is not configured', async () => {
    config.github = null;
    try {
      const browser = new Browser();
      const csrfToken = await browser.csrf();
      const response = await browser.request('POST', '/api/auth/signin/github', { csrfToken, callbackUrl: '/' });
      expect(response.headers.get('location')).not.toContain('github.com');
    } finally {
      config.github = { clientId: 'fake-id', clientSecret: 'fake-secret' };
    }
  });
});
