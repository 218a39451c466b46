// Where a site's rules behaved differently from Netlify's (issue 37's defects),
// through the real front server on the site's own host. Netlify's answers were
// taken from its own engine (netlify-redirector, @netlify/headers-parser).
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { compileRules, headersFor, matchRedirect, parseHeaders, parseRedirects, RULE_LIMITS } from '@/lib/spaces/site-rules.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();

async function published(handle: string, files: Record<string, string>) {
  const owner = await signIn(handle, 'web');
  const space = await makeSpace(owner.token, handle);
  const { commit } = await push(owner.token, space.id, { 'index.html': '<h1>Home</h1>', ...files });
  const origin = onPort(siteUrl(space.id), server.origin);
  return { commit, origin, get: (path: string) => rawRequest(origin, 'GET', path) };
}

/** A Location header as sent: printable ASCII only (Node reads header bytes as Latin-1). */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

describe('redirect targets', () => {
  const REDIRECTS = ['/blog/* /news/:splat 302', '/jp /日本/ 301', '/fr /café.html 301', '/away https://exämple.test/ü?q=ä 302', '/jour /日本.html 200', '/odd /a|b"c<d>%zz 301'].join('\n');

  it('are sent percent-encoded as UTF-8, never as raw bytes or a 500', async () => {
    const { get, origin } = await published('rules-nl-encode', { _redirects: REDIRECTS, '日本.html': '<h1>Nihon</h1>' });
    const cases: [string, number, string][] = [
      ['/blog/%E6%97%A5', 302, `${origin}/news/%E6%97%A5`],
      ['/blog/a%20b', 302, `${origin}/news/a%20b`],
      // An escape in the asked path stays one: %25 is a "%", not the start of one.
      ['/blog/%2541', 302, `${origin}/news/%2541`],
      ['/blog/a%3Fb%23c', 302, `${origin}/news/a%3Fb%23c`],
      ['/jp', 301, `${origin}/%E6%97%A5%E6%9C%AC/`],
      ['/fr?x=1', 301, `${origin}/caf%C3%A9.html?x=1`],
      // An address elsewhere keeps its scheme and host; a host beyond ASCII is sent in punycode.
      ['/away', 302, 'https://xn--exmple-cua.test/%C3%BC?q=%C3%A4'],
      ['/odd', 301, `${origin}/a%7Cb%22c%3Cd%3E%25zz`],
    ];
    for (const [path, status, location] of cases) {
      const answer = await get(path);
      expect([answer.status, answer.headers.location], path).toEqual([status, location]);
      expect(answer.headers.location, path).toMatch(PRINTABLE_ASCII);
    }
    // A name given twice binds its first value, as in netlify-redirector.
    expect(matchRedirect(compileRules({ redirects: [{ from: '/p/:x/:x', to: '/q/:x', status: 301, force: false }], headers: [] }), '/p/1/2')?.target).toBe('/q/1');
    // A rewrite to a file named beyond ASCII still serves it.
    expect((await get('/jour')).text).toBe('<h1>Nihon</h1>');
  });

  it('never let a visitor choose the host: a placeholder before the path of an address elsewhere is refused', () => {
    const reason = "a placeholder in the target's host would let visitors choose where they are sent";
    expect(parseRedirects('/go/* https://:splat@ex.test/ 302\n/to/:site https://:site.ex.test/ 302\n/ok/* https://ex.test:8080/:splat 302\n').ignored).toEqual([
      { file: '_redirects', line: 1, reason },
      { file: '_redirects', line: 2, reason },
    ]);
    // A version committed before this check is served without such a rule.
    const stored = { from: '/go/*', to: 'https://:splat@ex.test/', status: 302 as const, force: false };
    expect(matchRedirect(compileRules({ redirects: [stored], headers: [] }), '/go/evil.test/x')).toBeNull();
  });
});

describe('query-string conditions and other statuses', () => {
  const REDIRECTS = ['/search q=:q /find?query=:q&safe=1 302', '/store id=:id /blog/:id 301', '/store cat=books /books 302', '/store /shop 301', '/gone /gone-page.html 410', '/busy /busy.html 503!', '/busy.html /x 999'].join('\n');

  it('match on the query as Netlify does, and serve the target with any error status', async () => {
    const { get, origin, commit } = await published('rules-nl-query', { _redirects: REDIRECTS, 'gone-page.html': '<h1>Gone</h1>', 'busy.html': '<h1>Busy</h1>' });
    expect(commit.rules.ignored.map((i: { line: number }) => i.line)).toEqual([7]);
    const cases: [string, number, string | undefined][] = [
      ['/store?id=5', 301, `${origin}/blog/5?id=5`],
      ['/store?x=1&id=a%20b', 301, `${origin}/blog/a%20b?x=1&id=a%20b`],
      // A parameter given twice is taken at its last value, as netlify-redirector takes it.
      ['/store?id=5&id=6', 301, `${origin}/blog/6?id=5&id=6`],
      ['/store?cat=books&cat=music', 301, `${origin}/shop?cat=books&cat=music`],
      // A rule whose condition is not met is passed over for the next.
      ['/store?cat=books', 302, `${origin}/books?cat=books`],
      ['/store?cat=music', 301, `${origin}/shop?cat=music`],
      ['/store', 301, `${origin}/shop`],
      // A value cannot add a parameter to the target, or change one.
      ['/search?q=a%26safe%3D0%2Bb', 302, `${origin}/find?query=a%26safe%3D0%2Bb&safe=1`],
    ];
    for (const [path, status, location] of cases) {
      const answer = await get(path);
      expect([answer.status, answer.headers.location], path).toEqual([status, location]);
    }
    const gone = await get('/gone');
    expect([gone.status, gone.text]).toEqual([410, '<h1>Gone</h1>']);
    const busy = await get('/busy');
    expect([busy.status, busy.text]).toEqual([503, '<h1>Busy</h1>']);
  });
});

describe('country and language conditions', () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));
  const REDIRECTS = [
    '/shop /shop-anz.html 200 Country=au,nz',
    '/shop /shop-world.html 200',
    '/hello /bonjour 302 Language=fr',
    '/hello /gruezi 302 Language=de-ch',
    '/page /page-fr.html 200 Language=fr',
    '/page /page-en.html 200',
    '/x /y 302 Role=admin',
    '/x /y Country=us',
  ].join('\n');

  it('take the country from the trusted proxy and the preferred language, and say so in Vary', async () => {
    Object.assign(config, { trustProxy: true });
    const files = { _redirects: REDIRECTS, 'shop-anz.html': 'anz', 'shop-world.html': 'world', 'page-fr.html': 'fr', 'page-en.html': `<p>${'en '.repeat(600)}</p>` };
    const { origin, commit } = await published('rules-nl-geo', files);
    expect(commit.rules.ignored).toEqual([
      { file: '_redirects', line: 7, reason: 'only Country= and Language= conditions are supported, not "Role=admin"' },
      { file: '_redirects', line: 8, reason: 'a status comes before the conditions (Country=, Language=)' },
    ]);
    const get = (path: string, headers: Record<string, string>) => rawRequest(origin, 'GET', path, { headers });
    const anz = await get('/shop', { 'cf-ipcountry': 'AU' });
    expect([anz.text, anz.headers.vary]).toEqual(['anz', 'x-vercel-ip-country, cf-ipcountry']);
    expect((await get('/shop', { 'x-vercel-ip-country': 'NZ' })).text).toBe('anz');
    expect((await get('/shop', { 'cf-ipcountry': 'US' })).text).toBe('world');
    expect((await get('/shop', {})).text).toBe('world');
    const language = async (accept: string) => (await get('/hello', { 'accept-language': accept })).headers.location ?? null;
    expect(await language('fr-CA,en;q=0.5')).toBe(`${origin}/bonjour`);
    expect(await language('en;q=0.9, fr')).toBe(`${origin}/bonjour`);
    expect(await language('de-CH')).toBe(`${origin}/gruezi`);
    // A region asks for itself alone; weight 0 is a refusal.
    expect(await language('de')).toBeNull();
    expect(await language('fr;q=0, en')).toBeNull();
    const page = await get('/page', { 'accept-language': 'en', 'accept-encoding': 'br' });
    expect([page.headers.vary, page.headers['content-encoding']]).toEqual(['Accept-Language, Accept-Encoding', 'br']);
    expect((await get('/page', { 'accept-language': 'fr' })).text).toBe('fr');
    // A country is only taken from a trusted proxy.
    Object.assign(config, { trustProxy: false });
    expect((await get('/shop', { 'cf-ipcountry': 'AU' })).text).toBe('world');
  });
});

describe('a folder asked without its slash', () => {
  it('is redirected to it with 301, as on Netlify', async () => {
    const { get, origin } = await published('rules-nl-folder', { 'docs/index.html': '<h1>Docs</h1>' });
    const answer = await get('/docs?page=2');
    expect([answer.status, answer.headers.location]).toEqual([301, `${origin}/docs/?page=2`]);
  });
});

describe('_headers paths', () => {
  it('match whatever the case, as Netlify\'s parser does; _redirects paths keep theirs', async () => {
    const { get } = await published('rules-nl-case', {
      'assets/app.css': 'h1{}',
      'Docs/Guide.html': '<h1>Guide</h1>',
      'été.html': '<h1>Summer</h1>',
      _headers: '/Assets/*\n  X-Asset: yes\n/docs/*\n  X-Docs: yes\n/ÉTÉ.html\n  X-Summer: yes\n',
      _redirects: '/Old /new 301\n',
    });
    expect((await get('/assets/app.css')).headers['x-asset']).toBe('yes');
    expect((await get('/Docs/Guide.html')).headers['x-docs']).toBe('yes');
    expect((await get('/%C3%A9t%C3%A9.html')).headers['x-summer']).toBe('yes');
    // netlify-redirector matches redirect paths case-sensitively.
    expect((await get('/Old')).status).toBe(301);
    expect((await get('/old')).status).toBe(404);
  });
});

describe('a "*" inside a _headers path', () => {
  it('matches as Netlify\'s parser does, across segments', () => {
    // Each answer as @netlify/headers-parser's expression for the path gives it.
    const netlify: [string, string, boolean][] = [
      ['/*.css', '/a.css', true],
      ['/*.css', '/x/y/app.css', true],
      ['/*.css', '/A.CSS', true],
      ['/*.css', '/a.css/', true],
      ['/*.css', '/a.js', false],
      ['/*.css', '/css', false],
      ['/assets/*.js', '/assets/lib/x.js', true],
      ['/assets/*.js', '/other/app.js', false],
      ['/blog/*/comments', '/blog/2024/x/comments', true],
      ['/blog/*/comments', '/blog/comments', true],
      ['/blog/*/comments', '/blog/a/comments/', true],
      ['/img/logo-*.png', '/img/logo-dark.png', true],
      ['/img/logo-*.png', '/img/logo.png', false],
      ['/img/logo-*.png', '/img/logo-a/b.png', true],
    ];
    for (const [pattern, path, matches] of netlify) {
      const { rules } = parseHeaders(`${pattern}\n  X-Hit: yes\n`);
      expect(headersFor(compileRules({ redirects: [], headers: rules }), path).get('x-hit'), `${pattern} ${path}`).toBe(matches ? 'yes' : undefined);
    }
    expect(parseHeaders('/a*b*c\n  X-Hit: yes\n/*/:id\n  X-Hit: yes\n').ignored.filter((i) => i.line % 2).map((i) => i.reason)).toEqual(['one "*" per path', 'a ":placeholder" after the "*"']);
    expect(parseRedirects('/*.css /styles 301\n').ignored[0].reason).toBe('a "*" may only end the pattern');
  });
});

describe('a _redirects larger than the limit', () => {
  it('is read up to the limit and applied; the rest is reported', async () => {
    const text = `/first /applied 302\n${`# ${'x'.repeat(98)}\n`.repeat(3000)}/last /never 302\n`;
    expect(text.length).toBeGreaterThan(RULE_LIMITS.fileBytes);
    const { get, commit } = await published('rules-nl-large', { _redirects: text });
    expect((await get('/first')).status).toBe(302);
    const lastRead = text.slice(0, RULE_LIMITS.fileBytes).split('\n').length - 1;
    expect(commit.rules.ignored).toEqual([{ file: '_redirects', line: lastRead + 1, reason: 'the file is larger than 256 KB; from this line on it is not read' }]);
  });
});

describe('the commit answer for a file of many rules', () => {
  it('lists the first 100 lines left out and counts them all', async () => {
    // 252 KB, within the limit.
    const text = '/a /b\n'.repeat(42_000);
    expect(parseRedirects(text).ignored).toHaveLength(40_000);
    const owner = await signIn('rules-nl-many', 'web');
    const space = await makeSpace(owner.token, 'rules-nl-many');
    const { commit } = await push(owner.token, space.id, { _redirects: text });
    expect(commit.rules.ignored).toHaveLength(100);
    expect(commit.rules.ignored[0]).toEqual({ file: '_redirects', line: 2001, reason: 'more than 2000 rules' });
    expect(commit.rules.ignoredCount).toBe(40_000);
    expect(JSON.stringify(commit).length).toBeLessThan(20_000);
  });
});
