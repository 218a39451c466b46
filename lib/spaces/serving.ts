// Serving published spaces to their visitors, on the space's own host
// (sp-<id>.<content domain>, lib/spaces/hosts.ts) or, without a content
// domain, sandboxed on the app's origin at /s/<id>/…
//
// - A folder serves its index.html (a folder asked without its trailing slash
//   is redirected to it, so relative links work); a missing file serves the
//   version's 404.html, else a plain 404 page, with status 404.
// - The latest version by default, an older one with ?v=<n>. Strong ETags are
//   the content hash; the latest version is revalidated on each visit, a
//   numbered one may be cached for a year.
// - Every response is nosniff with the site's CSP (content.ts).
// - Access: a public space needs nothing. A password-protected one shows a
//   password form; the right password grants the site's cookie (set by
//   server/sites.ts, 12 hours) holding an unlock token. A members-only space
//   needs a signed-in person who may view it: the app's session never reaches
//   a site's host, so the site sends them to /s/<id>/… on the app's origin,
//   which hands them back with a one-minute single-use token that the site
//   exchanges for its cookie. Without a content domain the session itself
//   counts on /s/<id>/, and members get the cookie for the sandboxed page's
//   own requests.
// - Content that needs the cookie (members-only or password-protected) is
//   never a sub-resource of another site: a request the browser marks as
//   cross-site or same-site (Sec-Fetch-Site) that is not a navigation is
//   refused, whatever cookie it carries.
// - HTML pages served with status 200 count as views, except for people who
//   can push.
// This module decides; server/sites.ts turns its answers into responses and
// renders the pages (password form, not found).
import type { Caller } from '../core/caller.ts';
import type { Actor } from '../core/caller.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { COUNTRY_HEADERS } from '../core/client.ts';
import { ApiError } from '../core/errors.ts';
import { FileAnswer } from '../core/files.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { contentTypeOf, siteCsp } from './content.ts';
import { findEntry, type ChunkRef, type Entry } from './manifest.ts';
import { normalizePath } from './paths.ts';
import { versionSite } from './publishing.ts';
import { dependsOn, headersFor, isRedirect, matchRedirect, preferredLanguage, sentOnAppOrigin, setsCaching } from './site-rules.ts';
import { aliasVersion } from './aliases.ts';
import { domainOf } from './domains.ts';
import { aliasOrigin, spaceOrigin } from './hosts.ts';
import { loadSpace, type LoadedSpace } from './spaces.ts';
import { UNLOCK_LIFETIME, unlockSpace } from './unlock.ts';
import { storeView } from './visitors.ts';

const HANDOFF_PARAM = 'atrium-access';
/** On the app's origin: the custom domain a hand-off goes back to. */
const RETURN_PARAM = 'atrium-return';
const HANDOFF_LIFETIME = 60 * 1000;
export const SITE_TOKEN_LIFETIME = UNLOCK_LIFETIME;

/** A visit to a published site, as the front server saw it. */
export type SiteVisit = {
  /** The address asked for. */
  url: URL;
  /** On the space's own host, or at /s/<id>/ on the app's origin. */
  where: 'own-host' | 'app-origin';
  /** The path inside the site as asked (still percent-encoded), without its leading slash. */
  inner: string;
  /** The alias the visitor came through (its own host, or /s/<id>/~<alias>/), null for the space's own address. */
  alias: string | null;
  /** The custom domain the visitor came through, null for Atrium's own addresses. */
  domain: string | null;
  method: 'GET' | 'HEAD';
  /** Who the app's session says the visitor is (only ever sent on the app's own origin). */
  sessionActor: Actor | null;
  /** The space's own cookie: an unlock token or a member's access token. */
  siteToken: string | null;
  client: Caller['client'];
  referrer: string | null;
  /** The browser's Sec-Fetch-Site and Sec-Fetch-Mode, when it sent them. */
  fetchSite: string | null;
  fetchMode: string | null;
  /** The browser's Accept-Language, for the site's `Language=` rules. */
  acceptLanguage: string | null;
};

/** What to answer; `grant` is a new value for the space's cookie. */
export type SiteAnswer = { grant?: string } & (
  | { kind: 'file'; file: FileAnswer }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 303 | 307 | 308 }
  | { kind: 'password'; status: 400 | 401 | 429; error: string | null; memberUrl: string | null; headers?: Record<string, string> }
  | { kind: 'not-found'; message: string; signInUrl: string | null }
);

const NOT_FOUND = 'There is nothing here, or you cannot see it.';

async function issueSiteToken(spaceId: string, purpose: 'member' | 'handoff', userId: string, lifetime: number): Promise<string> {
  const token = newSecret('spaceAccess');
  await db.spaceAccessToken.create({ data: { hash: hashSecret(token), spaceId, purpose, userId, expiresAt: new Date(Date.now() + lifetime) } });
  return token;
}

/** Who the site's cookie says the visitor is: an unlock, or a member's access. */
async function siteCookie(token: string | null, spaceId: string): Promise<{ unlockToken: string | null; actor: Actor | null }> {
  if (!token) return { unlockToken: null, actor: null };
  const row = await db.spaceAccessToken.findUnique({
    where: { hash: hashSecret(token) },
    select: { spaceId: true, purpose: true, expiresAt: true, userId: true },
  });
  if (!row || row.spaceId !== spaceId || row.expiresAt.getTime() <= Date.now()) return { unlockToken: null, actor: null };
  if (row.purpose === 'unlock') return { unlockToken: token, actor: null };
  if (row.purpose !== 'member' || !row.userId) return { unlockToken: null, actor: null };
  const user = await db.user.findUnique({ where: { id: row.userId }, select: { id: true, handle: true, name: true } });
  return { unlockToken: null, actor: user ? { user, token: { id: 'site', kind: 'web' } } : null };
}

function signInUrl(url: URL): string {
  return `${config.publicUrl}/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
}

const notFound = (signIn: string | null, message = NOT_FOUND): SiteAnswer => ({ kind: 'not-found', message, signInUrl: signIn });

async function access(visit: SiteVisit, id: string): Promise<{ loaded: LoadedSpace; caller: Caller; viaSession: boolean } | null> {
  // On a site's own host the app's session never counts, whatever cookie a client sends.
  const sessionActor = visit.where === 'app-origin' ? visit.sessionActor : null;
  const cookie = await siteCookie(visit.siteToken, id);
  const caller: Caller = { actor: sessionActor ?? cookie.actor, spaceToken: cookie.unlockToken, client: visit.client };
  try {
    const loaded = await loadSpace(caller, id);
    return { loaded, caller, viaSession: sessionActor !== null && !cookie.actor };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * /s/<id>/… on the app's origin when sites have hosts of their own: send the
 * visitor to the site's host when it will let them in (with a hand-off token
 * for a signed-in person who may view), else not found here, so the two
 * origins never send a visitor back and forth.
 */
async function handOff(visit: SiteVisit, id: string, origin: string): Promise<SiteAnswer> {
  const { url } = visit;
  const target = new URL(`${origin}/${visit.inner}${url.search}`);
  target.searchParams.delete(RETURN_PARAM);
  const actor = visit.sessionActor;
  let loaded: LoadedSpace | null = null;
  try {
    loaded = await loadSpace({ actor, spaceToken: null, client: visit.client }, id);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
  if (!loaded) return notFound(actor ? null : signInUrl(url));
  if (actor && loaded.permissions.view) target.searchParams.set(HANDOFF_PARAM, await issueSiteToken(id, 'handoff', actor.user.id, HANDOFF_LIFETIME));
  return { kind: 'redirect', location: target.toString(), status: 303 };
}

/** Exchanges a hand-off token (single use) for the space's cookie, and drops it from the address. */
async function acceptHandOff(url: URL, id: string, token: string): Promise<SiteAnswer> {
  const clean = new URL(url);
  clean.searchParams.delete(HANDOFF_PARAM);
  const answer: SiteAnswer = { kind: 'redirect', location: clean.toString(), status: 303 };
  const row = await db.spaceAccessToken.findUnique({ where: { hash: hashSecret(token) } });
  if (row && row.purpose === 'handoff' && row.spaceId === id && row.userId && row.expiresAt.getTime() > Date.now()) {
    const used = await db.spaceAccessToken.deleteMany({ where: { hash: row.hash } });
    if (used.count === 1) answer.grant = await issueSiteToken(id, 'member', row.userId, SITE_TOKEN_LIFETIME);
  }
  return answer;
}

/** The rule files are read at commit and never served. */
const RULE_FILES = new Set(['_redirects', '_headers']);

/**
 * What answers a path inside a version, before any rule: the file itself, a
 * folder's index.html (a folder asked without its slash is redirected to it),
 * else `<path>.html` (clean URLs, as Netlify and Cloudflare Pages serve them).
 */
async function resolveFile(refs: ChunkRef[], path: string): Promise<{ entry: Entry | null; redirect: boolean }> {
  if (path === '' || path.endsWith('/')) return { entry: await findEntry(refs, `${path}index.html`), redirect: false };
  if (RULE_FILES.has(path)) return { entry: null, redirect: false };
  const entry = await findEntry(refs, path);
  if (entry) return { entry, redirect: false };
  if (await findEntry(refs, `${path}/index.html`)) return { entry: null, redirect: true };
  return { entry: await findEntry(refs, `${path}.html`), redirect: false };
}

/** A path inside the site, decoded and normalised: "" for the root, a folder with its trailing slash; null when it cannot be. */
function sitePath(raw: string): string | null {
  try {
    const decoded = decodeURIComponent(raw);
    if (decoded === '') return '';
    return decoded.endsWith('/') ? `${normalizePath(decoded.slice(0, -1))}/` : normalizePath(decoded);
  } catch {
    return null;
  }
}

/** A sub-resource (script, image, fetch…) that another site, even a sibling under the content domain, made the browser ask for. */
const includedByAnotherSite = (visit: SiteVisit) => (visit.fetchSite === 'cross-site' || visit.fetchSite === 'same-site') && visit.fetchMode !== 'navigate';

/** The site's path on the app's origin: /s/<id>/, or /s/<id>/~<alias>/. */
const appPath = (visit: SiteVisit, id: string) => `/s/${id}${visit.alias ? `/~${visit.alias}` : ''}`;

/** Where the app's origin takes over for a visitor the site's host cannot let in (sign-in, hand-off); a custom domain asks to be returned to. */
function onAppOrigin(visit: SiteVisit, id: string): string {
  const target = new URL(`${config.publicUrl}${appPath(visit, id)}/${visit.inner}${visit.url.search}`);
  if (visit.domain) target.searchParams.set(RETURN_PARAM, visit.url.origin);
  return target.toString();
}

/** The origin a hand-off returns to: the custom domain asked for when it is a verified domain of this space, else the site's own host (null without a content domain). */
async function returnOrigin(visit: SiteVisit, id: string): Promise<string | null> {
  const own = visit.alias ? aliasOrigin(id, visit.alias) : spaceOrigin(id);
  const asked = visit.url.searchParams.get(RETURN_PARAM);
  if (!asked || !URL.canParse(asked)) return own;
  const back = new URL(asked);
  const domain = await domainOf(back.hostname);
  return domain?.spaceId === id && /^https?:$/.test(back.protocol) ? back.origin : own;
}

/**
 * A person opening a page, as views count it: a navigation (or a client that
 * sends no fetch metadata) of a path that names a page. A single-page app's
 * rewrite answers /favicon.ico and /robots.txt with its top page too.
 */
function isPageLoad(visit: SiteVisit, path: string): boolean {
  const navigation = visit.fetchMode === null || visit.fetchMode === 'navigate';
  const extension = /\.([^./]+)$/.exec(path)?.[1].toLowerCase();
  return navigation && (extension === undefined || extension === 'html' || extension === 'htm');
}

export async function serveSite(visit: SiteVisit, id: string): Promise<SiteAnswer> {
  const { url } = visit;
  const origin = visit.where === 'app-origin' ? await returnOrigin(visit, id) : null;
  if (origin) return handOff(visit, id, origin);
  const handoff = url.searchParams.get(HANDOFF_PARAM);
  if (handoff && visit.where === 'own-host') return acceptHandOff(url, id, handoff);

  const found = await access(visit, id);
  if (found && !found.loaded.permissions.view && found.loaded.space.passwordHash !== null) {
    return { kind: 'password', status: 401, error: null, memberUrl: visit.where === 'own-host' ? onAppOrigin(visit, id) : null };
  }
  if (!found || !found.loaded.permissions.view) {
    // The app's origin knows who the visitor is; it hands them back if it can.
    if (visit.where === 'own-host') return { kind: 'redirect', location: onAppOrigin(visit, id), status: 303 };
    return notFound(found?.caller.actor ? null : signInUrl(url));
  }
  const { loaded, caller, viaSession } = found;
  const { space, permissions } = loaded;
  const needsCookie = space.visibility !== 'public' || space.passwordHash !== null;
  if (needsCookie && includedByAnotherSite(visit)) return notFound(null, 'This content is not served to other sites.');
  if (visit.where === 'app-origin' && url.pathname === appPath(visit, id)) return { kind: 'redirect', location: `${url.origin}${appPath(visit, id)}/${url.search}`, status: 308 };

  // An alias serves the version it points at now; otherwise ?v=<n>, else the latest.
  const asked = visit.alias ? null : url.searchParams.get('v');
  const aliased = visit.alias ? await aliasVersion(space.id, visit.alias) : null;
  if (visit.alias && aliased === null) return notFound(null, `There is no alias "${visit.alias}" here.`);
  const number = aliased ?? (asked && /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : space.latestVersion);
  const site = number > 0 && number <= space.latestVersion ? await versionSite(space.id, number) : null;
  if (!site) return notFound(null, space.latestVersion ? `There is no version ${number}.` : 'Nothing has been published here yet.');
  const { refs } = site;

  const path = sitePath(visit.inner);
  if (path === null) return notFound(null);
  const base = visit.where === 'own-host' ? url.origin : `${url.origin}${appPath(visit, id)}`;
  // The site's own rules (_redirects): the first that matches, unless forced, yields to a file that answers.
  const visitor = { query: url.searchParams, country: visit.client.location?.country ?? null, language: preferredLanguage(visit.acceptLanguage) };
  const rule = site.rules ? matchRedirect(site.rules, `/${path}`, visitor) : null;
  let resolved = rule?.rule.force ? { entry: null, redirect: false } : await resolveFile(refs, path);
  // 301, as Netlify answers (and browsers and crawlers expect of a folder).
  if (resolved.redirect) return { kind: 'redirect', location: `${url.origin}${url.pathname}/${url.search}`, status: 301 };
  let status = 200;
  if (!resolved.entry && rule) {
    const { rule: { status: ruleStatus }, target } = rule;
    if (isRedirect(ruleStatus)) {
      const location = /^https?:\/\//i.test(target) ? target : `${base}${target}`;
      return { kind: 'redirect', location: location.includes('?') || !url.search ? location : `${location}${url.search}`, status: ruleStatus as 301 | 302 | 303 | 307 | 308 };
    }
    // A rewrite (200), or an error page (a custom 404, a 410 for gone…): the target's file (its URL decoded), at the asked address.
    const targetPath = sitePath(target.split('?')[0].replace(/^\/+/, ''));
    resolved = targetPath === null ? { entry: null, redirect: false } : await resolveFile(refs, targetPath);
    if (resolved.redirect && targetPath !== null) resolved = { entry: await findEntry(refs, `${targetPath}/index.html`), redirect: false };
    status = ruleStatus;
  }
  const { entry } = resolved;

  const missing = entry ? null : await findEntry(refs, '404.html');
  if (!entry && !missing) return notFound(null);
  const file = (entry ?? missing)!;
  let contentType = contentTypeOf(file.path, file.contentType);
  const headers: Record<string, string> = {
    'cache-control': !needsCookie ? (asked ? 'public, max-age=31536000, immutable' : 'public, no-cache') : 'private, no-cache',
  };
  // The site's _headers may add headers and policies, never weaken Atrium's: a second policy only narrows the first.
  for (const [name, value] of site.rules ? headersFor(site.rules, `/${path}`) : []) {
    // On the app's origin only those that cannot act on the app itself are sent.
    if (visit.where === 'app-origin' && !sentOnAppOrigin(name)) continue;
    // Content behind a cookie stays `private`, whatever the site asks of caches.
    if (needsCookie && setsCaching(name)) continue;
    headers[name] = value;
  }
  if (headers['content-type']) {
    contentType = headers['content-type'];
    delete headers['content-type'];
  }
  // A rule for this path that asks for the country or language may serve another file to another visitor.
  const depends = site.rules ? dependsOn(site.rules, `/${path}`) : { country: false, language: false };
  const vary = [...(depends.language ? ['Accept-Language'] : []), ...(depends.country ? COUNTRY_HEADERS : [])];
  if (vary.length) headers.vary = vary.join(', ');
  const csp = siteCsp(visit.where);
  headers['content-security-policy'] = headers['content-security-policy'] ? `${csp}, ${headers['content-security-policy']}` : csp;
  const served = entry ? status : 404;
  const answer: SiteAnswer = { kind: 'file', file: new FileAnswer({ sha256: file.sha256, size: file.size, contentType }, headers, served) };
  // Sandboxed pages' own requests do not carry the app's session: give members the space's cookie.
  if (viaSession && caller.actor && needsCookie) {
    answer.grant = await issueSiteToken(space.id, 'member', caller.actor.user.id, SITE_TOKEN_LIFETIME);
  }
  if (served === 200 && visit.method === 'GET' && contentType.startsWith('text/html') && !permissions.push && isPageLoad(visit, path)) {
    await storeView(caller, space.id, { path: `/${path}`, version: asked || visit.alias ? number : null, referrer: visit.referrer, alias: visit.alias });
  }
  return answer;
}

/** The password form of a protected space, posted to `url`. */
export async function unlockSite(caller: Caller, url: URL, id: string, password: string | null): Promise<SiteAnswer> {
  if (password === null) return { kind: 'password', status: 400, error: 'Enter the password.', memberUrl: null };
  try {
    const { token } = await unlockSpace(caller, id, password);
    return { kind: 'redirect', location: url.toString(), status: 303, grant: token };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'unauthorized') return { kind: 'password', status: 401, error: 'Wrong password.', memberUrl: null };
    if (error.code === 'rate_limited') return { kind: 'password', status: 429, error: error.message, memberUrl: null, headers: error.headers };
    return notFound(null);
  }
}
