import { afterEach, describe, expect, it } from 'vitest';
import { PATCH as patchRoute } from '@/app/v1/spaces/[id]/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { PEER_HEADER } from '@/lib/http/client.ts';
import { siteResponse } from '@/server/sites.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace, push, sha } from './fixtures.ts';

type Site = { id: string };
const visit = (space: Site, path: string, headers: Record<string, string> = {}, origin = 'http://localhost:3000') =>
  siteResponse(new Request(`${origin}/s/${space.id}${path}`, { headers }));
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

describe('serving published spaces', () => {
  it('serves index.html for folders, redirects folders to their slash, and types every file', async () => {
    const { space } = await site('served');
    const home = await visit(space, '/');
    expect(home.status).toBe(200);
    expect(await home.text()).toBe('<h1>Home</h1>');
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await visit(space, '')).status).toBe(308);
    expect((await visit(space, '')).headers.get('location')).toBe(`http://localhost:3000/s/${space.id}/`);
    const docs = await visit(space, '/docs');
    expect(docs.status).toBe(308);
    expect(docs.headers.get('location')).toBe(`http://localhost:3000/s/${space.id}/docs/`);
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
    expect((await visit({ id: 'sp_unknown' }, '/')).status).toBe(404);
  });

  it('never lets published pages run with the app: nosniff and a sandbox without same-origin', async () => {
    const { space } = await site('sandboxed');
    const home = await visit(space, '/');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = home.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox allow-scripts/);
    expect(csp).not.toContain('allow-same-origin');
  });

  it('counts HTML page views of visitors, not of the owner', async () => {
    const { space, session } = await site('counted');
    await visit(space, '/', { referer: 'https://elsewhere.example/x' });
    await visit(space, '/style.css');
    await visit(space, '/', { cookie: session });
    const views = await db.spaceView.findMany({ where: { spaceId: space.id } });
    expect(views.map((v) => [v.path, v.referrer, v.userId])).toEqual([['/', 'elsewhere.example', null]]);
  });

  it('shows members-only spaces to signed-in members and gives them the space cookie for the page’s own requests', async () => {
    const { space, session } = await site('private-site', 'members');
    const anonymous = await visit(space, '/');
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).toContain('/signin?next=');
    const member = await visit(space, '/', { cookie: session });
    expect(member.status).toBe(200);
    expect(member.headers.get('cache-control')).toBe('private, no-cache');
    const cookie = member.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^atrium_space_${space.id}=atrp_[\\w-]+; Path=/s/${space.id}/; HttpOnly; SameSite=None; Secure; Max-Age=43200$`));
    // A sandboxed page's image request carries only the space cookie.
    expect((await visit(space, '/style.css', { cookie: cookieOf(member) })).status).toBe(200);
    const stranger = await signIn('private-stranger', 'web');
    expect((await visit(space, '/', { cookie: `atrium_session=${stranger.token}` })).status).toBe(404);
  });

  it('asks for the password of a protected space, sets its cookie on the right one, and answers 429 after too many', async () => {
    const { owner, space } = await site('pw-site');
    await call(patchRoute, 'PATCH', '', { token: owner.token, body: { password: 'letmein' }, params: { id: space.id } });
    const form = await visit(space, '/');
    expect(form.status).toBe(401);
    expect(await form.text()).toContain('<form method="post">');
    const submit = (password: string, peer = '10.1.1.1') =>
      siteResponse(
        new Request(`http://localhost:3000/s/${space.id}/docs/`, {
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
    expect(right.headers.get('location')).toBe(`http://localhost:3000/s/${space.id}/docs/`);
    expect((await visit(space, '/docs/', { cookie: cookieOf(right) })).status).toBe(200);
    for (let i = 0; i < 9; i++) await submit('nope');
    expect((await submit('letmein')).status).toBe(429);
  });
});

describe('a separate content origin', () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));

  it('hands signed-in members over from the app origin with a single-use token, and ignores the app session there', async () => {
    Object.assign(config, { contentBaseUrl: 'http://content.localhost:3000', separateContentOrigin: true });
    const { space, session } = await site('two-origins', 'members');
    // Content origin, no space cookie: off to the app origin, even with the app's session cookie.
    const direct = await visit(space, '/docs/', { cookie: session }, 'http://content.localhost:3000');
    expect(direct.status).toBe(303);
    expect(direct.headers.get('location')).toBe(`http://localhost:3000/s/${space.id}/docs/`);
    // App origin: signed in, so a hand-off token comes along.
    const handOff = await visit(space, '/docs/', { cookie: session });
    expect(handOff.status).toBe(303);
    const target = new URL(handOff.headers.get('location')!);
    expect(target.origin).toBe('http://content.localhost:3000');
    const token = target.searchParams.get('atrium-access')!;
    expect(token).toMatch(/^atrp_/);
    const exchange = await visit(space, `/docs/?atrium-access=${token}`, {}, 'http://content.localhost:3000');
    expect(exchange.status).toBe(303);
    expect(exchange.headers.get('location')).toBe(`http://content.localhost:3000/s/${space.id}/docs/`);
    const page = await visit(space, '/docs/', { cookie: cookieOf(exchange) }, 'http://content.localhost:3000');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain('allow-same-origin');
    // Strangers and unknown spaces end at the app origin's 404, not in a loop.
    const stranger = await signIn('two-origins-stranger', 'web');
    expect((await visit(space, '/', { cookie: `atrium_session=${stranger.token}` })).status).toBe(404);
    expect((await visit({ id: 'sp_unknown' }, '/', {}, 'http://content.localhost:3000')).status).toBe(303);
    expect((await visit({ id: 'sp_unknown' }, '/')).status).toBe(404);
    // Single use.
    const replay = await visit(space, `/docs/?atrium-access=${token}`, {}, 'http://content.localhost:3000');
    expect(replay.headers.get('set-cookie')).toBeNull();
  });
});
