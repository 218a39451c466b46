// A site's rules against Netlify's own: each case of the corpus below is asked
// of Atrium over HTTP (the front server, on the site's own host) and of
// Netlify's engine (`netlify-redirector`, fed by `@netlify/redirect-parser` as
// Netlify's build feeds it; `_headers` through `@netlify/headers-parser`), and
// the two must agree but for KNOWN_DIFFERENCES, each a decision of
// docs/decisions.md ("Rules kept in the site"). A listed difference that starts
// to agree fails too, so the list stays true.
//
// The engine only matches: it answers the rule and its filled-in target. What
// Netlify's server does around it is modelled here as Atrium documents it (a
// rule not forced yields to a file, a folder's index or a clean URL; a folder
// without its slash gets 301; the query is passed on to a target without one).
// The engine is given the decoded path, as Netlify's CLI gives it (so a %2F is
// a slash on both sides), and targets are compared decoded: an escaped "%"
// bound from the path is left to site-rules-netlify.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllHeaders } from '@netlify/headers-parser';
import { parseAllRedirects } from '@netlify/redirect-parser';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { compileRules, matchRedirect, parseRedirects } from '@/lib/spaces/site-rules.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

type EngineRequest = { scheme: string; host: string; path: string; query: string; getHeader(name: string): string; getCookie(name: string): string };
type EngineMatch = { to: string; status: number; force: boolean };
type Engine = { parseJSON(rules: string, options: object): Promise<{ match(request: EngineRequest): EngineMatch | null }> };
const netlifyRedirector = createRequire(import.meta.url)('netlify-redirector') as Engine;

/** A request of the corpus: its path (as sent, query included) and the headers a rule may read. */
type Ask = string | [string, Record<string, string>];
/** `refused`: the patterns of rules Atrium reports at commit (a known difference each). */
type Site = { name: string; redirects?: string; headers?: string; refused?: string[]; files: string[]; asks: Ask[] };
/** What a visitor gets: a status with its target (redirects) or the file served, and the site's own headers. */
type Outcome = { status: number; to?: string; file?: string; headers?: Record<string, string> };

/** Netlify's answer and Atrium's differ for these cases, for the reason docs/decisions.md gives. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'paths /deep/x/y/end': 'a "*" inside a redirect\'s path is reported, not matched',
  'paths /proxy/users': 'proxying to another site stays refused',
  'paths /pair/:b/x': 'a ":name" the visitor sends is not filled in again',
  'paths /blog//x': 'a path with an empty segment is not found',
  'query /search?q=a+b': 'a query value is sent as %20 where Netlify writes +',
  'query /store?x=1&id=a%20b': 'a query value is sent as %20 where Netlify writes +',
  'query /version?v=2': '?v=<n> asks for a version, so a rule never sees a v parameter',
};

const CORPUS: Site[] = [
  {
    name: 'paths',
    redirects: `
      # splats and placeholders
      /blog/*              /news/:splat           302
      /old/:year/:slug     /posts/:year-:slug     301
      /docs/:section/*     /manual/:section/:splat 301
      /p/:x/:x             /q/:x                  302
      /pair/:a/:b          /t/:a/:b               302
      /top/*               /:splat                302
      /deep/*/end          /deep-end              301
      # statuses
      /temp                /moved                 307
      /perm                /moved                 308
      /see                 /moved                 303
      /default             /moved
      /gone                /gone-page.html        410
      /missing-page        /custom-404.html       404
      /spa/*               /app.html              200
      # shadowing and force
      /exists.html         /elsewhere             302
      /other               /elsewhere             301
      /forced.html         /other.html            200!
      /forced-away         /elsewhere             302!
      /folder              /elsewhere             302
      # trailing slashes, case, dots
      /trail/              /trail-target          302
      /CaseSens            /moved                 302
      /dots/a.b            /moved                 302
      # beyond ASCII, escapes
      /fr                  /café.html             301
      /jp                  /日本/                  301
      /été                 /summer                302
      /space               /a%20b.html            200
      /encoded             /x%7Cy                 302
      # elsewhere
      /away                https://example.com/moved  301
      /ext/*               https://example.com/:splat 302
      /unicode-host        https://exämple.test/ü?q=ä 302
      /proxy/*             https://example.com/api/:splat 200
    `,
    refused: ['/deep/*/end', '/proxy/*'],
    files: ['index.html', '404.html', 'exists.html', 'other.html', 'forced.html', 'gone-page.html', 'custom-404.html', 'app.html', 'café.html', '日本/index.html', 'a b.html', 'folder/index.html', 'trail-target.html'],
    asks: [
      '/blog/x', '/blog/a/b/c', '/blog', '/blog/', '/blog/%E6%97%A5', '/blog/a%20b', '/blog/%C3%A9t%C3%A9', '/blog/a%2Fb', '/blog/x?page=2',
      '/old/2024/hello', '/old/2024', '/old/2024/hello/more', '/old/2024/hello/',
      '/docs/api/v1/x', '/docs/api', '/docs/api/', '/p/1/2', '/pair/x/y', '/pair/:b/x', '/blog//x', '/top/a/b', '/deep/x/y/end',
      '/temp', '/perm', '/see', '/default', '/default?x=1', '/gone', '/missing-page', '/spa/a/b', '/spa',
      '/exists.html', '/exists', '/other', '/forced.html', '/forced-away', '/folder', '/folder/',
      '/trail', '/trail/', '/CaseSens', '/casesens', '/dots/a.b', '/dots/aXb',
      '/fr', '/jp', '/%C3%A9t%C3%A9', '/%E6%97%A5%E6%9C%AC', '/%E6%97%A5%E6%9C%AC/', '/space', '/encoded', '/caf%C3%A9',
      '/away', '/ext/a/b', '/ext/%E6%97%A5', '/unicode-host', '/proxy/users', '/nothing', '/',
    ],
  },
  {
    name: 'query',
    redirects: `
      /store   id=:id       /blog/:id        301
      /store   cat=books    /books           302
      /store                /shop            301
      /search  q=:q         /find?query=:q   302
      /both    a=:a  b=:b   /ab/:a/:b        302
      /exact   page=2       /page-two        302
      /version v=2          /v2              302
      /keep                 /kept?x=1        302
      /forced  id=:id       /index.html      200!
    `,
    files: ['index.html', 'forced.html'],
    asks: [
      '/store?id=5', '/store?id=5&id=6', '/store?id=6&id=5', '/store?id=', '/store?x=1&id=a%20b', '/store?cat=books', '/store?cat=music', '/store', '/store?ID=5',
      '/search?q=hello', '/search?q=a+b', '/search?q=%E6%97%A5', '/both?a=1&b=2', '/both?b=2&a=1', '/both?a=1',
      '/exact?page=2', '/exact?page=3', '/version?v=2', '/keep?y=2', '/forced?id=1', '/forced',
    ],
  },
  {
    name: 'visitor',
    redirects: `
      /shop   /shop-anz.html    200  Country=au,nz
      /shop   /shop-world.html  200
      /hello  /bonjour          302  Language=fr
      /hello  /gruezi           302  Language=de-ch
      /hello  /hello-all        302
      /both   /both-met         302  Country=ca Language=fr
    `,
    files: ['index.html', 'shop-anz.html', 'shop-world.html'],
    asks: [
      ['/shop', { 'cf-ipcountry': 'AU' }], ['/shop', { 'cf-ipcountry': 'NZ' }], ['/shop', { 'cf-ipcountry': 'US' }], ['/shop', {}],
      ['/hello', { 'accept-language': 'fr' }], ['/hello', { 'accept-language': 'fr-CA' }], ['/hello', { 'accept-language': 'de-CH' }],
      ['/hello', { 'accept-language': 'de' }], ['/hello', { 'accept-language': 'en' }], ['/hello', {}],
      ['/both', { 'cf-ipcountry': 'CA', 'accept-language': 'fr' }], ['/both', { 'cf-ipcountry': 'CA', 'accept-language': 'en' }], ['/both', { 'cf-ipcountry': 'FR', 'accept-language': 'fr' }],
    ],
  },
  {
    name: 'headers',
    headers: `
/*
  X-All: yes
/assets/*
  X-Assets: first
/*.css
  X-Css: yes
/Docs/*
  X-Docs: yes
/blog/:slug
  X-Post: yes
/img/logo-*.png
  X-Logo: yes
/été.html
  X-Summer: yes
/assets/*
  X-Assets: second
`,
    files: ['index.html', 'style.css', 'assets/app.css', 'assets/lib/x.js', 'docs/guide.html', 'Docs/Upper.html', 'blog/post.html', 'blog/2024/deep.html', 'img/logo-dark.png', 'img/logo.png', 'été.html'],
    asks: ['/', '/style.css', '/assets/app.css', '/ASSETS/app.css', '/assets/lib/x.js', '/docs/guide.html', '/Docs/Upper.html', '/blog/post.html', '/blog/2024/deep.html', '/img/logo-dark.png', '/img/logo.png', '/%C3%A9t%C3%A9.html'],
  },
];

const dedent = (text: string) => `${text.split('\n').map((line) => line.trim()).join('\n').trim()}\n`;
/** A file's content names it, so an answer shows which file was served. */
const content = (file: string) => `file:${file}`;

/** Decodes every well-formed run of escapes, leaving a stray "%" as it is. */
const decoded = (text: string) =>
  text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
/** A target as compared: decoded, an address elsewhere with its host as URL gives it (punycode). */
function comparable(target: string): string {
  if (!/^https?:\/\//i.test(target)) return decoded(target);
  const url = new URL(target);
  return `${url.protocol}//${url.host}${decoded(url.pathname + url.search)}`;
}

/** The file a path names (decoded, without its leading slash), or null: the file, a folder's index, a clean URL. */
function fileAt(files: Set<string>, path: string): string | null {
  const name = path.slice(1);
  const candidates = name === '' || name.endsWith('/') ? [`${name}index.html`] : [name, `${name}.html`];
  return candidates.find((file) => files.has(file)) ?? null;
}

let files = 0;
/** A _redirects as Netlify reads it: @netlify/redirect-parser (which reads files), then the engine. */
async function netlifyEngine(text: string) {
  const file = join(dir, `${++files}_redirects`);
  await writeFile(file, text);
  const { redirects, errors } = await parseAllRedirects({ redirectsFiles: [file], configRedirects: [], minimal: false });
  expect(errors).toEqual([]);
  // The engine reads a rule's query conditions as `params`.
  const rules = (redirects as { query: object }[]).map(({ query, ...rule }) => ({ ...rule, params: query }));
  return netlifyRedirector.parseJSON(JSON.stringify(rules), {});
}

/** Netlify's answer: its engine's match, and its server's rules around it as Atrium documents them. */
async function netlifyOutcomes(site: Site, dir: string): Promise<Outcome[]> {
  const files = new Set(site.files);
  let match: (request: EngineRequest) => EngineMatch | null = () => null;
  if (site.redirects) {
    const matcher = await netlifyEngine(dedent(site.redirects));
    match = (request) => matcher.match(request);
  }
  let headerRules: { forRegExp: RegExp; values: Record<string, string> }[] = [];
  if (site.headers) {
    await writeFile(join(dir, `${site.name}_headers`), site.headers);
    const { headers, errors } = await parseAllHeaders({ headersFiles: [join(dir, `${site.name}_headers`)], configHeaders: [], minimal: false });
    expect(errors).toEqual([]);
    headerRules = headers as typeof headerRules;
  }
  return site.asks.map((ask) => {
    const [asked, sent] = typeof ask === 'string' ? [ask, {}] : ask;
    const url = new URL(asked, 'http://site.test');
    const path = decodeURIComponent(url.pathname);
    const query = url.search.slice(1);
    // As Netlify's proxy hands them to the engine: the country code and the language tag.
    const headers: Record<string, string> = { 'x-country': sent['cf-ipcountry']?.toLowerCase() ?? '', 'x-language': sent['accept-language']?.toLowerCase() ?? '' };
    const found = match({ scheme: 'http', host: url.host, path, query, getHeader: (name) => headers[name.toLowerCase()] ?? '', getCookie: () => '' });
    const folder = !path.endsWith('/') && files.has(`${path.slice(1)}/index.html`);
    if (found && (found.force || !(fileAt(files, path) || folder))) {
      if (found.status >= 300 && found.status < 400) return { status: found.status, to: comparable(!found.to.includes('?') && query ? `${found.to}?${query}` : found.to) };
      if (/^https?:/i.test(found.to)) return { status: found.status, to: `proxied to ${found.to}` };
      const served = fileAt(files, decoded(found.to));
      return served ? { status: found.status, file: served } : { status: 404 };
    }
    if (folder) return { status: 301, to: comparable(`${path}/${query ? `?${query}` : ''}`) };
    const served = fileAt(files, path);
    if (!served) return files.has('404.html') ? { status: 404, file: '404.html' } : { status: 404 };
    if (!site.headers) return { status: 200, file: served };
    const own = new Map<string, string>();
    for (const rule of headerRules.filter(({ forRegExp }) => forRegExp.test(path))) {
      for (const [name, value] of Object.entries(rule.values)) own.set(name.toLowerCase(), own.has(name.toLowerCase()) ? `${own.get(name.toLowerCase())}, ${value}` : value);
    }
    return { status: 200, file: served, headers: Object.fromEntries([...own].sort()) };
  });
}

/** Atrium's answer, over HTTP on the site's host. */
async function atriumOutcomes(site: Site, origin: string): Promise<Outcome[]> {
  return Promise.all(
    site.asks.map(async (ask) => {
      const [asked, headers] = typeof ask === 'string' ? [ask, {}] : ask;
      const answer = await rawRequest(origin, 'GET', asked, { headers });
      if (answer.status >= 300 && answer.status < 400) {
        const location = String(answer.headers.location);
        return { status: answer.status, to: comparable(location.startsWith(`${origin}/`) ? location.slice(origin.length) : location) };
      }
      const file = answer.text.startsWith('file:') ? answer.text.slice('file:'.length) : undefined;
      if (!site.headers || answer.status !== 200) return file ? { status: answer.status, file } : { status: answer.status };
      const named = new Set([...site.headers.matchAll(/^\s+([\w-]+):/gm)].map(([, name]) => name.toLowerCase()));
      const own = Object.entries(answer.headers).filter(([name]) => named.has(name));
      return { status: answer.status, file, headers: Object.fromEntries(own.map(([name, value]) => [name, String(value)]).sort()) };
    }),
  );
}

const server = useFrontServer();
const saved = { ...config };
let dir = '';
beforeAll(async () => {
  // A country is read from a trusted proxy's header only.
  Object.assign(config, { trustProxy: true });
  dir = await mkdtemp(join(tmpdir(), 'netlify-rules-'));
});
afterAll(async () => {
  Object.assign(config, saved);
  await rm(dir, { recursive: true, force: true });
});

describe("a site's rules against Netlify's engine", () => {
  it('answer every case of the corpus as Netlify does, but for the known differences', async () => {
    const owner = await signIn('rules-diff', 'web');
    const rows: { id: string; atrium: Outcome; netlify: Outcome }[] = [];
    for (const site of CORPUS) {
      const space = await makeSpace(owner.token, 'rules-diff', { name: site.name });
      const files: Record<string, string> = Object.fromEntries(site.files.map((file) => [file, content(file)]));
      if (site.redirects) files._redirects = dedent(site.redirects);
      if (site.headers) files._headers = site.headers;
      const { commit } = await push(owner.token, space.id, files);
      // Every other rule is taken, so a difference is one of matching, not of parsing.
      const lines = dedent(site.redirects ?? '').split('\n');
      const refused = (site.refused ?? []).map((pattern) => lines.findIndex((line) => line.startsWith(`${pattern} `)) + 1);
      expect(commit.rules.ignored.map((line: { line: number }) => line.line), site.name).toEqual(refused);
      const [atrium, netlify] = await Promise.all([atriumOutcomes(site, onPort(siteUrl(space.id), server.origin)), netlifyOutcomes(site, dir)]);
      site.asks.forEach((ask, i) => rows.push({ id: `${site.name} ${typeof ask === 'string' ? ask : `${ask[0]} ${JSON.stringify(ask[1])}`}`, atrium: atrium[i], netlify: netlify[i] }));
    }
    expect(rows.length).toBeGreaterThanOrEqual(80);
    const agrees = (row: (typeof rows)[number]) => JSON.stringify(row.atrium) === JSON.stringify(row.netlify);
    expect(rows.filter((row) => !agrees(row) && !(row.id in KNOWN_DIFFERENCES))).toEqual([]);
    // A listed difference that now agrees, or names no case, is taken off the list.
    expect(Object.keys(KNOWN_DIFFERENCES).filter((id) => !rows.some((row) => row.id === id && !agrees(row)))).toEqual([]);
  });

  it('pick the same rule and target as the engine for any rules of placeholders and splats, and any path', async () => {
    const segment = fc.constantFrom('a', 'b', 'a.b', 'é', 'A', ':x', ':y');
    const from = fc.tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom('', '/', '/*')).map(([segments, end]) => `/${segments.join('/')}${end}`.replace('//', '/'));
    const to = fc.array(fc.constantFrom('t', ':x', ':y', ':splat'), { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join('/')}`);
    const rule = fc.tuple(from, to, fc.constantFrom('301', '302', '200', '404', '301!')).map((fields) => fields.join(' '));
    // Paths without an empty segment or a ":name" of their own (two differences listed above).
    const pathSegment = fc.constantFrom('a', 'b', 'a.b', 'é', 'A', 'x y', '%', '+', '*', '日本');
    const path = fc.tuple(fc.array(pathSegment, { maxLength: 4 }), fc.boolean()).map(([segments, slash]) => `/${segments.join('/')}${slash && segments.length ? '/' : ''}`);
    await fc.assert(
      fc.asyncProperty(fc.array(rule, { minLength: 1, maxLength: 4 }), fc.array(path, { minLength: 1, maxLength: 5 }), async (lines, paths) => {
        const text = `${lines.join('\n')}\n`;
        const { rules, ignored } = parseRedirects(text);
        expect(ignored).toEqual([]);
        const ours = compileRules({ redirects: rules, headers: [] });
        const theirs = await netlifyEngine(text);
        for (const asked of paths) {
          const atrium = matchRedirect(ours, asked);
          const netlify = theirs.match({ scheme: 'http', host: 'site.test', path: asked, query: '', getHeader: () => '', getCookie: () => '' });
          expect(atrium && [atrium.rule.status, atrium.rule.force, decoded(atrium.target)], `${text}${asked}`).toEqual(netlify && [netlify.status, netlify.force, netlify.to]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
