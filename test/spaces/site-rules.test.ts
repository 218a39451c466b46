// A site's own rules (_redirects, _headers) in the format Netlify documents and
// Cloudflare Pages reads, served through the real front server on the site's
// own host. The rule files are written for these tests after the kinds of
// examples those hosts document.
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { parseHeaders, parseRedirects } from '@/lib/spaces/site-rules.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();

const REDIRECTS = `# Moved pages
/home                 /                          301
/blog/*               /news/:splat               302
/news/:year/:slug     /articles/:slug.html       200
/about                /elsewhere                 301
/legacy.html          /fresh                     301!
/twitter              https://social.example/atrium  302
/app/*                /app/index.html            200
/docs/*               /docs/missing.html         404
/search  /find  301  q=:q
/proxy/*  https://api.example/:splat  200
/teapot   /tea   418
/ancient  /old   99
`;

const HEADERS = `# Every page
/*
  X-Frame-Options: DENY
  Content-Security-Policy: img-src 'self'
  Set-Cookie: stolen=yes
/assets/*
  Cache-Control: public, max-age=31536000, immutable
/feed
  Content-Type: application/rss+xml
`;

const FILES = {
  'index.html': '<h1>Home</h1>',
  'about.html': '<h1>About</h1>',
  'legacy.html': '<h1>Legacy</h1>',
  'articles/hello.html': '<h1>Hello article</h1>',
  'app/index.html': '<h1>Single-page app</h1>',
  'docs/missing.html': '<h1>No such doc</h1>',
  'docs/intro.html': '<h1>Intro</h1>',
  'assets/app.css': 'h1{}',
  feed: '<rss/>',
  _redirects: REDIRECTS,
  _headers: HEADERS,
};

async function published(handle: string) {
  const owner = await signIn(handle, 'web');
  const space = await makeSpace(owner.token, handle);
  const { commit } = await push(owner.token, space.id, FILES);
  const site = onPort(siteUrl(space.id), server.origin);
  const get = (path: string) => rawRequest(site, 'GET', path);
  return { commit, get, origin: site };
}

describe('_redirects and _headers', () => {
  it('are parsed at commit: the rules taken and the lines left out, with why', async () => {
    const { commit } = await published('rules-commit');
    expect(commit.version.number).toBe(1);
    expect(commit.rules).toEqual({
      redirects: 9,
      headers: 3,
      ignored: [
        { file: '_redirects', line: 10, reason: 'only Country= and Language= conditions are supported, not "q=:q"' },
        { file: '_redirects', line: 11, reason: "status 200 serves a file of this site; another site's address cannot be (proxying is not supported)" },
        { file: '_redirects', line: 13, reason: 'status "99" is not 200, a redirect (301, 302, 303, 307, 308) or an error from 400 to 599 (with an optional "!")' },
        { file: '_headers', line: 5, reason: 'Set-Cookie is set by Atrium and cannot be changed' },
      ],
      ignoredCount: 4,
    });
  });

  it('redirect, rewrite and serve custom not-found pages as the anchors do', async () => {
    const { get, origin } = await published('rules-serve');
    const moved = await get('/home?ref=mail');
    expect([moved.status, moved.headers.location]).toEqual([301, `${origin}/?ref=mail`]);
    const splat = await get('/blog/2024/launch');
    expect([splat.status, splat.headers.location]).toEqual([302, `${origin}/news/2024/launch`]);
    // A rewrite serves the target's file at the asked address, placeholders filled in.
    const article = await get('/news/2024/hello');
    expect([article.status, article.text]).toEqual([200, '<h1>Hello article</h1>']);
    // A single-page app: every path under /app/ is its index.html.
    expect((await get('/app/settings/profile')).text).toBe('<h1>Single-page app</h1>');
    // A file that exists wins over a rule (shadowing)…
    expect((await get('/docs/intro.html')).text).toBe('<h1>Intro</h1>');
    const custom = await get('/docs/nope');
    expect([custom.status, custom.text]).toEqual([404, '<h1>No such doc</h1>']);
    // …also through a clean URL (/about serves about.html), unless the rule is forced.
    expect([(await get('/about')).status, (await get('/about')).text]).toEqual([200, '<h1>About</h1>']);
    expect((await get('/legacy.html')).status).toBe(301);
    expect((await get('/twitter')).headers.location).toBe('https://social.example/atrium');
    // The rule files themselves are not served.
    expect((await get('/_redirects')).status).toBe(404);
    expect((await get('/_headers')).status).toBe(404);
  });

  it('add headers and policies to what Atrium sends, never weakening it', async () => {
    const { get } = await published('rules-headers');
    const page = await get('/');
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Two policies: the browser enforces both, so the site can narrow Atrium's, never lift it.
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'self' http://localhost:3000, img-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await get('/assets/app.css')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/feed')).headers['content-type']).toBe('application/rss+xml');
  });
});

describe('rule files that do not parse', () => {
  it('still commit the version, and stop at the documented limits', async () => {
    const owner = await signIn('rules-broken', 'web');
    const space = await makeSpace(owner.token, 'rules-broken');
    const { commit } = await push(owner.token, space.id, { 'index.html': 'x', _redirects: 'nonsense\n/ok /fine 302\n' });
    expect(commit.version.number).toBe(1);
    expect(commit.rules).toMatchObject({ redirects: 1, headers: 0, ignored: [{ file: '_redirects', line: 1, reason: 'a rule needs a path and a target' }] });
    const many = Array.from({ length: 2001 }, (_, i) => `/r${i} /t${i}`).join('\n');
    expect(parseRedirects(many).ignored).toEqual([{ file: '_redirects', line: 2001, reason: 'more than 2000 rules' }]);
    expect(parseHeaders(`/x\n  X-Long: ${'a'.repeat(2100)}\n`).ignored[0].reason).toBe('longer than 2000 characters');
  });

  it('find a comment on a long line without backtracking from every "#"', () => {
    // A regular expression running from each "#" to the end of the line took minutes on this one, at commit.
    const line = `${' #'.repeat(128 * 1024 - 1)}\r`;
    expect(parseRedirects(line)).toEqual({ rules: [], ignored: [] });
    expect(parseRedirects('/a /b 302 # moved\n').rules).toEqual([{ from: '/a', to: '/b', status: 302, force: false }]);
  });
});

// Without a content domain sites are served at /s/<id>/ on the app's own
// origin, where a header acts on the app: Clear-Site-Data would sign every
// visitor out and wipe the app's storage.
const ON_THE_APP = `/*
  Clear-Site-Data: "*"
  NEL: {"report_to":"spy","max_age":86400,"include_subdomains":true}
  Report-To: {"group":"spy","max_age":86400,"endpoints":[{"url":"https://spy.example/r"}]}
  Reporting-Endpoints: spy="https://spy.example/r"
  Service-Worker-Allowed: /
  Origin-Agent-Cluster: ?0
  Permissions-Policy: camera=*, geolocation=*
  Access-Control-Allow-Credentials: true
  Strict-Transport-Security: max-age=31536000; includeSubDomains
  Cross-Origin-Opener-Policy: unsafe-none
  Refresh: 0; url=https://spy.example/
  X-Made-Up: yes
  Cache-Control: public, max-age=60
  Content-Language: en
  X-Robots-Tag: noindex
  Access-Control-Allow-Origin: *
  Content-Security-Policy: img-src 'self'
  Link: </style.css>; rel=preload; as=style
/feed
  clear-SITE-data: "cookies"
  Content-Type: application/rss+xml
`;
const FORBIDDEN = ['clear-site-data', 'nel', 'report-to', 'reporting-endpoints', 'service-worker-allowed', 'origin-agent-cluster', 'permissions-policy', 'access-control-allow-credentials', 'strict-transport-security', 'cross-origin-opener-policy', 'refresh', 'x-made-up'];

describe("_headers on the app's origin (no content domain)", () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));

  async function onTheApp(handle: string) {
    Object.assign(config, { contentDomain: null });
    const owner = await signIn(handle, 'web');
    const space = await makeSpace(owner.token, handle);
    const { commit } = await push(owner.token, space.id, { 'index.html': '<h1>Home</h1>', 'style.css': 'h1{}', feed: '<rss/>', _headers: ON_THE_APP });
    return { commit, get: (path: string) => rawRequest(server.origin, 'GET', `/s/${space.id}${path}`) };
  }

  it('pass only headers that describe the file or narrow the page, never one that acts on the app', async () => {
    const { get } = await onTheApp('rules-app-origin');
    for (const path of ['/', '/style.css', '/feed', '/missing']) {
      const answer = await get(path);
      for (const name of FORBIDDEN) expect(answer.headers[name], `${path} ${name}`).toBeUndefined();
    }
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('public, max-age=60');
    expect(page.headers['content-language']).toBe('en');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['access-control-allow-origin']).toBe('*');
    expect(page.headers.link).toBe('</style.css>; rel=preload; as=style');
    // Atrium's sandbox first, the site's policy beside it: browsers enforce both.
    expect(page.headers['content-security-policy']).toMatch(/^sandbox allow-scripts[^,]*, img-src 'self'$/);
    expect((await get('/feed')).headers['content-type']).toBe('application/rss+xml');
  });

  it('are reported at commit, line by line, and still sent on a host of its own', async () => {
    const { commit } = await onTheApp('rules-app-report');
    const reported = commit.rules!.ignored.map((i: { line: number; reason: string }) => `${i.line} ${i.reason}`);
    const names = ['Clear-Site-Data', 'NEL', 'Report-To', 'Reporting-Endpoints', 'Service-Worker-Allowed', 'Origin-Agent-Cluster', 'Permissions-Policy', 'Access-Control-Allow-Credentials', 'Strict-Transport-Security', 'Cross-Origin-Opener-Policy', 'Refresh', 'X-Made-Up'];
    expect(reported).toEqual([
      ...names.map((name, i) => `${i + 2} ${name} is not sent on the app's origin (no content domain is set), only on a custom domain`),
      "21 clear-SITE-data is not sent on the app's origin (no content domain is set), only on a custom domain",
    ]);
    expect(commit.rules!.headers).toBe(2);
    // With a content domain the same rules act on the site's own origin only, as before.
    Object.assign(config, saved);
    const owner = await signIn('rules-own-host', 'web');
    const space = await makeSpace(owner.token, 'rules-own-host');
    await push(owner.token, space.id, { 'index.html': '<h1>Home</h1>', _headers: ON_THE_APP });
    const own = await rawRequest(onPort(siteUrl(space.id), server.origin), 'GET', '/');
    expect(own.headers['clear-site-data']).toBe('"*"');
  });
});

describe('_headers on content behind a cookie', () => {
  const saved = config.contentDomain;

  it('cannot send a members-only page to shared caches', async () => {
    const owner = await signIn('rules-private-cache', 'web');
    const space = await makeSpace(owner.token, 'rules-private-cache', { visibility: 'members' });
    const rules = '/*\n  Cache-Control: public, max-age=31536000, immutable\n  CDN-Cache-Control: max-age=86400\n  Surrogate-Control: max-age=86400\n  X-Robots-Tag: noindex\n';
    await push(owner.token, space.id, { 'index.html': '<h1>Members</h1>', _headers: rules });
    // The member's way in on the site's own host: the app's hand-off, then the site's cookie.
    const handOff = await rawRequest(server.origin, 'GET', `/s/${space.id}/`, { headers: { cookie: `atrium_session=${owner.token}` } });
    const exchange = await rawRequest(onPort(handOff.headers.location as string, server.origin), 'GET', new URL(handOff.headers.location as string).pathname + new URL(handOff.headers.location as string).search);
    const cookie = String(exchange.headers['set-cookie']).split(';')[0];
    const page = await rawRequest(onPort(siteUrl(space.id), server.origin), 'GET', '/', { headers: { cookie } });
    expect(page.text).toBe('<h1>Members</h1>');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['cdn-cache-control']).toBeUndefined();
    expect(page.headers['surrogate-control']).toBeUndefined();
    expect(page.headers['x-robots-tag']).toBe('noindex');
    // The same on the app's origin, signed in.
    Object.assign(config, { contentDomain: null });
    try {
      const onTheApp = await rawRequest(server.origin, 'GET', `/s/${space.id}/`, { headers: { cookie: `atrium_session=${owner.token}` } });
      expect(onTheApp.text).toBe('<h1>Members</h1>');
      expect(onTheApp.headers['cache-control']).toBe('private, no-cache');
    } finally {
      Object.assign(config, { contentDomain: saved });
    }
  });
});
