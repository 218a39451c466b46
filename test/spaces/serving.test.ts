import { afterEach, describe, expect, it } from 'vitest';
import { PATCH as patchRoute } from '@/app/v1/spaces/[id]/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { flushViews } from '@/lib/spaces/visitors.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { spaceOrigin } from '@/lib/spaces/hosts.ts';
import { call, signIn } from '../helpers.ts';
import { overSocket, useFrontServer } from '../server.ts';
import { makeSpace, push, sha } from './fixtures.ts';

// Every request goes to the front server over a socket, as a visitor's does.
const front = useFrontServer();
const served = (request: Request) => overSocket(front.origin, request);

type Site = { id: string };
const APP = 'http://localhost:3000';
/** A request on the space's own host (sp-<id>.localhost:3000: the tests' content domain). */
const visit = (space: Site, path: string, headers: Record<string, string> = {}) => served(new Request(`${spaceOrigin(space.id)}${path || '/'}`, { headers }));
/** A request to /s/<id>/… on the app's origin. */
const viaApp = (space: Site, path: string, headers: Record<string, string> = {}) => served(new Request(`${APP}/s/${space.id}${path}`, { headers }));
const UNKNOWN = { id: `sp_${'x'.repeat(21)}` };
const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? '';

async function site(handle: string, visibility: 'public' | 'members' = 'public') {
  const owner = await signIn(handle, 'web');
  const space = await makeSpace(owner.token, handle, { visibility });
  await push(owner.token, space.id, { 'index.html': '<h1>Home v1</h1>' });
  await push(owner.token, space.id, {
    'index.html': '<h1>Home</h1>',
    'docs/index.html': '<h1>Docs</h1>',
    'style.css': 'h1{}',
    'data.json': '{}',
    'app.wasm': 'wasm',
    'raw.bin': 'bin',
    '404.html': '<h1>Lost</h1>',
  }, undefined, { 'raw.bin': 'application/x-custom' });
  return { owner, space, session: `atrium_session=${owner.token}` };
}


/** The site's cookie for a signed-in person, through the app origin's hand-off. */
async function handedOver(space: Site, session: string): Promise<string> {
  const handOff = await viaApp(space, '/', { cookie: session });
  const target = new URL(handOff.headers.get('location')!);
  const exchange = await served(new Request(target));
  return cookieOf(exchange);
}

describe('serving published spaces on their own hosts', () => {
  it('gives each space a host of its own under the content domain, and /s/<id>/ on the app leads there', async () => {
    const { space } = await site('hosted');
    expect(spaceOrigin(space.id)).toBe(`http://${space.id.replace('_', '-')}.localhost:3000`);
    const moved = await viaApp(space, '/docs/?v=1');
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`${spaceOrigin(space.id)}/docs/?v=1`);
    // Both spellings of the label name the space; anything else under the domain is no site.
    expect((await served(new Request(`http://${space.id}.localhost:3000/`))).status).toBe(200);
    expect((await served(new Request('http://nothing.localhost:3000/'))).status).toBe(404);
  });

  it('serves index.html for folders, redirects folders to their slash, and types every file', async () => {
    const { space } = await site('served');
    const home = await visit(space, '/');
    expect(home.status).toBe(200);
    expect(await home.text()).toBe('<h1>Home</h1>');
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const docs = await visit(space, '/docs');
    expect(docs.status).toBe(301);
    expect(docs.headers.get('location')).toBe(`${spaceOrigin(space.id)}/docs/`);
    expect(await (await visit(space, '/docs/')).text()).toBe('<h1>Docs</h1>');
    expect((await visit(space, '/style.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await visit(space, '/data.json')).headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await visit(space, '/app.wasm')).headers.get('content-type')).toBe('application/wasm');
    expect((await visit(space, '/raw.bin')).headers.get('content-type')).toBe('application/x-custom');
  });

  it('sends strong ETags from the content hash, 304 when unchanged, and older versions with ?v=', async () => {
    const { space } = await site('etagged');
    const home = await visit(space, '/');
    expect(home.headers.get('etag')).toBe(`"${sha('<h1>Home</h1>')}"`);
    expect(home.headers.get('cache-control')).toBe('public, no-cache');
    const again = await visit(space, '/', { 'if-none-match': home.headers.get('etag')! });
    expect(again.status).toBe(304);
    const old = await visit(space, '/?v=1');
    expect(await old.text()).toBe('<h1>Home v1</h1>');
    expect(old.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await visit(space, '/?v=7')).status).toBe(404);
  });

  it("serves the version's 404.html with status 404, or a plain 404 page", async () => {
    const { space } = await site('lost');
    const missing = await visit(space, '/nope.html');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('<h1>Lost</h1>');
    const old = await visit(space, '/nope.html?v=1');
    expect(old.status).toBe(404);
    expect(await old.text()).toContain('There is nothing here');
  });

  it('lets pages keep their origin (no sandbox) while only the app may frame them, nosniff', async () => {
    const { space } = await site('own-origin');
    const home = await visit(space, '/');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    expect(home.headers.get('content-security-policy')).toBe(`frame-ancestors 'self' ${APP}`);
  });

  it('counts HTML page views of visitors, not of the owner', async () => {
    const { space, owner } = await site('counted');
    await visit(space, '/', { referer: 'https://elsewhere.example/x' });
    await visit(space, '/style.css');
    // The owner, handed over from the app's origin.
    const cookie = await handedOver(space, `atrium_session=${owner.token}`);
    await visit(space, '/', { cookie });
    await flushViews();
    const views = await db.spaceView.findMany({ where: { spaceId: space.id } });
    expect(views.map((v) => [v.path, v.referrer, v.userId])).toEqual([['/', 'elsewhere.example', null]]);
  });

  it('counts page loads only: not an icon or script a single-page rewrite answers with the top page', async () => {
    const owner = await signIn('spa-counted', 'web');
    const space = await makeSpace(owner.token, 'spa-counted');
    await push(owner.token, space.id, { 'index.html': '<h1>App</h1>', _redirects: '/* /index.html 200\n' });
    expect((await visit(space, '/favicon.ico', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' })).status).toBe(200);
    // A crawler asks without fetch metadata; an icon is still no page.
    await visit(space, '/favicon.ico');
    await visit(space, '/robots.txt');
    await visit(space, '/settings', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' });
    await flushViews();
    const views = await db.spaceView.findMany({ where: { spaceId: space.id } });
    expect(views.map((v) => v.path)).toEqual(['/settings']);
  });

  it('hands signed-in members over from the app origin with a single-use token, and ignores the app session on the site', async () => {
    const { space, session } = await site('two-origins', 'members');
    // The site's host, no site cookie: off to the app origin, even with the app's session cookie.
    const direct = await visit(space, '/docs/', { cookie: session });
    expect(direct.status).toBe(303);
    expect(direct.headers.get('location')).toBe(`${APP}/s/${space.id}/docs/`);
    // App origin: signed in, so a hand-off token comes along.
    const handOff = await viaApp(space, '/docs/', { cookie: session });
    expect(handOff.status).toBe(303);
    const target = new URL(handOff.headers.get('location')!);
    expect(target.origin).toBe(spaceOrigin(space.id));
    const token = target.searchParams.get('atrium-access')!;
    expect(token).toMatch(/^atrp_/);
    const exchange = await visit(space, `/docs/?atrium-access=${token}`);
    expect(exchange.status).toBe(303);
    expect(exchange.headers.get('location')).toBe(`${spaceOrigin(space.id)}/docs/`);
    // The host's own cookie: no sibling can set it (__Host-), and the app's frames get their own (Partitioned).
    expect(exchange.headers.get('set-cookie')).toMatch(/^__Host-atrium_space=atrp_[\w-]+; Path=\/; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age=43200$/);
    const page = await visit(space, '/docs/', { cookie: cookieOf(exchange) });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    // Strangers and unknown spaces end at the app origin's 404, not in a loop.
    const stranger = await signIn('two-origins-stranger', 'web');
    expect((await viaApp(space, '/', { cookie: `atrium_session=${stranger.token}` })).status).toBe(404);
    expect(await (await viaApp(space, '/')).text()).toContain('/signin?next=');
    expect((await visit(UNKNOWN, '/')).status).toBe(303);
    expect((await viaApp(UNKNOWN, '/')).status).toBe(404);
    // Single use.
    const replay = await visit(space, `/docs/?atrium-access=${token}`);
    expect(replay.headers.get('set-cookie')).toBeNull();
  });

  it('refuses cross-site and same-site sub-resource reads of content that needs the cookie, whatever cookie they carry', async () => {
    const { space, session } = await site('no-embedding', 'members');
    const cookie = await handedOver(space, session);
    const from = (site: string, mode: string, dest: string) => visit(space, '/style.css', { cookie, 'sec-fetch-site': site, 'sec-fetch-mode': mode, 'sec-fetch-dest': dest });
    expect((await from('same-origin', 'no-cors', 'style')).status).toBe(200);
    expect((await from('cross-site', 'no-cors', 'script')).status).toBe(404);
    expect((await from('same-site', 'cors', 'empty')).status).toBe(404);
    // Following a link from elsewhere is fine; so is a client that sends no fetch metadata.
    expect((await from('cross-site', 'navigate', 'document')).status).toBe(200);
    expect((await visit(space, '/style.css', { cookie })).status).toBe(200);
    // Public content may be included anywhere, as on any static host.
    const { space: open } = await site('embeddable');
    expect((await visit(open, '/style.css', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'style' })).status).toBe(200);
  });

  it('asks for the password of a protected space on its host, sets its cookie on the right one, and answers 429 after too many', async () => {
    const { owner, space } = await site('pw-site');
    await call(patchRoute, 'PATCH', '', { token: owner.token, body: { password: 'letmein' }, params: { id: space.id } });
    const form = await visit(space, '/');
    expect(form.status).toBe(401);
    const text = await form.text();
    expect(text).toContain('<form method="post">');
    // Members may open it with their account instead, through the app's origin.
    expect(text).toContain(`href="${APP}/s/${space.id}/"`);
    // A loopback address of this test's own: rate limits count by address, in a Redis other test files share.
    const peer = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.1`;
    const submit = (password: string) =>
      served(
        new Request(`${spaceOrigin(space.id)}/docs/`, {
          method: 'POST',
          body: new URLSearchParams({ password }),
          headers: { 'content-type': 'application/x-www-form-urlencoded', [PEER_HEADER]: peer },
        }),
      );
    const wrong = await submit('nope');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong password.');
    const right = await submit('letmein');
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(`${spaceOrigin(space.id)}/docs/`);
    expect((await visit(space, '/docs/', { cookie: cookieOf(right) })).status).toBe(200);
    expect((await visit(space, '/style.css', { cookie: cookieOf(right), 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' })).status).toBe(404);
    for (let i = 0; i < 9; i++) await submit('nope');
    expect((await submit('letmein')).status).toBe(429);
  });
});

describe('without a content domain (sandboxed on the app origin)', () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));
  const at = (space: Site, path: string, headers: Record<string, string> = {}) => served(new Request(`${APP}/s/${space.id}${path}`, { headers }));

  it('serves /s/<id>/ in a sandbox without same-origin, redirecting the bare id to its slash', async () => {
    Object.assign(config, { contentDomain: null });
    const { space } = await site('sandboxed');
    expect((await at(space, '')).headers.get('location')).toBe(`${APP}/s/${space.id}/`);
    const home = await at(space, '/');
    expect(await home.text()).toBe('<h1>Home</h1>');
    const csp = home.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox allow-scripts/);
    expect(csp).not.toContain('allow-same-origin');
    expect((await at(UNKNOWN, '/')).status).toBe(404);
  });

  it('shows members-only spaces to signed-in members and gives them the space cookie for the page’s own requests', async () => {
    Object.assign(config, { contentDomain: null });
    const { space, session } = await site('private-site', 'members');
    const anonymous = await at(space, '/');
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).toContain('/signin?next=');
    const member = await at(space, '/', { cookie: session });
    expect(member.status).toBe(200);
    const cookie = member.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^atrium_space_${space.id}=atrp_[\\w-]+; Path=/s/${space.id}/; HttpOnly; SameSite=None; Secure; Max-Age=43200$`));
    expect((await at(space, '/style.css', { cookie: cookieOf(member) })).status).toBe(200);
    const stranger = await signIn('private-stranger', 'web');
    expect((await at(space, '/', { cookie: `atrium_session=${stranger.token}` })).status).toBe(404);
  });
});
