// Serving published spaces to their visitors at <CONTENT_BASE_URL>/s/<id>/…
//
// - A folder serves its index.html (a folder asked without its trailing slash
//   is redirected to it, so relative links work); a missing file serves the
//   version's 404.html, else a plain 404 page, with status 404.
// - The latest version by default, an older one with ?v=<n>. Strong ETags are
//   the content hash; the latest version is revalidated on each visit, a
//   numbered one may be cached for a year.
// - Every response is nosniff with a sandboxing CSP (content.ts).
// - Access: a public space needs nothing. A password-protected one shows a
//   password form; the right password sets the space's cookie
//   (atrium_space_<id>, Path=/s/<id>/, 12 hours) holding an unlock token.
//   A members-only space needs a signed-in person who may view it: on the
//   app's own origin the session cookie identifies them; with a separate
//   content origin they pass through the app's origin, which hands them a
//   one-minute single-use token that the content origin exchanges for the
//   space's cookie. The space's cookie is also what sandboxed pages' own
//   requests (images, scripts) carry, so it is SameSite=None where the
//   browser allows it (https, or localhost).
// - HTML pages served with status 200 count as views, except for people who
//   can push.
import type { Actor } from '../auth/tokens.ts';
import { actorForSecret, SESSION_COOKIE } from '../auth/tokens.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { cookieValue } from '../http/authenticate.ts';
import { clientAddress } from '../http/client.ts';
import { ApiError } from '../http/errors.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { contentTypeOf, fileResponse, siteCsp } from './content.ts';
import { findEntry, type ChunkRef } from './manifest.ts';
import { normalizePath } from './paths.ts';
import { versionRefs } from './publishing.ts';
import { loadSpace, siteUrl, type LoadedSpace } from './spaces.ts';
import { UNLOCK_LIFETIME, unlockSpace } from './unlock.ts';
import { storeView } from './visitors.ts';

const HANDOFF_PARAM = 'atrium-access';
const HANDOFF_LIFETIME = 60 * 1000;
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

export const spaceCookie = (spaceId: string) => `atrium_space_${spaceId}`;

function cookieHeader(spaceId: string, token: string): string {
  const content = new URL(config.contentBaseUrl);
  const secure = content.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(content.hostname);
  const sameSite = secure ? 'SameSite=None; Secure' : 'SameSite=Lax';
  return `${spaceCookie(spaceId)}=${token}; Path=/s/${spaceId}/; HttpOnly; ${sameSite}; Max-Age=${UNLOCK_LIFETIME / 1000}`;
}

async function issueSiteToken(spaceId: string, purpose: 'member' | 'handoff', userId: string, lifetime: number): Promise<string> {
  const token = newSecret('spaceAccess');
  await db.spaceAccessToken.create({ data: { hash: hashSecret(token), spaceId, purpose, userId, expiresAt: new Date(Date.now() + lifetime) } });
  return token;
}

/** Who the site's cookie says the visitor is: an unlock, or a member's access. */
async function siteCookie(request: Request, spaceId: string): Promise<{ unlockToken: string | null; actor: Actor | null }> {
  const token = cookieValue(request, spaceCookie(spaceId));
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:15vh auto;padding:0 1rem;color:#0f172a}input,button{font:inherit;padding:.5rem .75rem;border-radius:.375rem;border:1px solid #cbd5e1}button{background:#3730a3;color:#fff;border:0}.error{color:#b91c1c}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...headers },
  });
}

function notFoundPage(signInUrl: string | null): Response {
  const signIn = signInUrl ? `<p><a href="${escapeHtml(signInUrl)}">Sign in</a> if it was shared with you.</p>` : '';
  return page(404, 'Not found', `<p>There is nothing here, or you cannot see it.</p>${signIn}`);
}

function passwordPage(status: number, error: string | null): Response {
  const note = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  return page(
    status,
    'This space is protected',
    `<p>Enter its password to open it.</p>${note}<form method="post"><label>Password <input type="password" name="password" autofocus required></label> <button>Open</button></form>`,
  );
}

function isAppOrigin(url: URL): boolean {
  return config.separateContentOrigin && url.origin === new URL(config.publicUrl).origin;
}

/** The path inside the space, with its trailing slash: "" for the root. */
function innerPath(url: URL, spaceId: string): string {
  const prefix = `/s/${spaceId}`;
  const rest = url.pathname.slice(prefix.length);
  return rest.replace(/^\//, '');
}

function signInUrl(url: URL): string {
  return `${config.publicUrl}/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
}

async function access(request: Request, url: URL, id: string): Promise<{ loaded: LoadedSpace; actor: Actor | null; viaSession: boolean } | null> {
  const session = cookieValue(request, SESSION_COOKIE);
  const sessionActor = session && !config.separateContentOrigin ? await actorForSecret(session) : null;
  const cookie = await siteCookie(request, id);
  const actor = sessionActor ?? cookie.actor;
  try {
    const loaded = await loadSpace({ actor, unlockToken: cookie.unlockToken }, id);
    return { loaded, actor, viaSession: sessionActor !== null && !cookie.actor };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * On the app's origin with a separate content origin: send the visitor to the
 * content origin when it will let them in (with a hand-off token for a
 * signed-in person who may view), else answer 404 here, so the two origins
 * never send a visitor back and forth.
 */
async function handOff(request: Request, url: URL, id: string): Promise<Response> {
  const target = new URL(`${config.contentBaseUrl}${url.pathname}${url.search}`);
  const session = cookieValue(request, SESSION_COOKIE);
  const actor = session ? await actorForSecret(session) : null;
  let loaded: LoadedSpace | null = null;
  try {
    loaded = await loadSpace({ actor }, id);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
  if (!loaded) return notFoundPage(actor ? null : signInUrl(url));
  if (actor && loaded.permissions.view) target.searchParams.set(HANDOFF_PARAM, await issueSiteToken(id, 'handoff', actor.user.id, HANDOFF_LIFETIME));
  return Response.redirect(target, 303);
}

/** Exchanges a hand-off token (single use) for the space's cookie, and drops it from the address. */
async function acceptHandOff(url: URL, id: string, token: string): Promise<Response> {
  const clean = new URL(url);
  clean.searchParams.delete(HANDOFF_PARAM);
  const row = await db.spaceAccessToken.findUnique({ where: { hash: hashSecret(token) } });
  const headers = new Headers({ location: clean.toString(), 'cache-control': 'no-store' });
  if (row && row.purpose === 'handoff' && row.spaceId === id && row.userId && row.expiresAt.getTime() > Date.now()) {
    const used = await db.spaceAccessToken.deleteMany({ where: { hash: row.hash } });
    if (used.count === 1) headers.append('set-cookie', cookieHeader(id, await issueSiteToken(id, 'member', row.userId, UNLOCK_LIFETIME)));
  }
  return new Response(null, { status: 303, headers });
}

async function resolveFile(refs: ChunkRef[], path: string) {
  if (path === '' || path.endsWith('/')) return { entry: await findEntry(refs, `${path}index.html`), redirect: false };
  const entry = await findEntry(refs, path);
  if (entry) return { entry, redirect: false };
  return { entry: null, redirect: (await findEntry(refs, `${path}/index.html`)) !== null };
}

export async function serveSite(request: Request, id: string): Promise<Response> {
  const url = new URL(request.url);
  if (isAppOrigin(url)) return handOff(request, url, id);
  const handoff = url.searchParams.get(HANDOFF_PARAM);
  if (handoff) return acceptHandOff(url, id, handoff);

  const found = await access(request, url, id);
  if (found && !found.loaded.permissions.view && found.loaded.space.passwordHash !== null) return passwordPage(401, null);
  if (!found || !found.loaded.permissions.view) {
    // The app's origin knows who the visitor is; it hands them back if it can.
    if (config.separateContentOrigin) return Response.redirect(`${config.publicUrl}${url.pathname}${url.search}`, 303);
    return notFoundPage(found?.actor ? null : signInUrl(url));
  }
  const { loaded, actor, viaSession } = found;
  const { space, permissions } = loaded;
  if (url.pathname === `/s/${id}`) return Response.redirect(`${url.origin}/s/${id}/${url.search}`, 308);

  const asked = url.searchParams.get('v');
  const number = asked && /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : space.latestVersion;
  const refs = number > 0 && number <= space.latestVersion ? await versionRefs(space.id, number) : null;
  if (!refs) return page(404, 'Not found', space.latestVersion ? `<p>There is no version ${number}.</p>` : '<p>Nothing has been published here yet.</p>');

  let path: string;
  try {
    const raw = decodeURIComponent(innerPath(url, id));
    path = raw === '' || raw.endsWith('/') ? (raw === '' ? '' : `${normalizePath(raw.slice(0, -1))}/`) : normalizePath(raw);
  } catch {
    return notFoundPage(null);
  }
  const { entry, redirect } = await resolveFile(refs, path);
  if (redirect) return Response.redirect(`${url.origin}${url.pathname}/${url.search}`, 308);

  const headers: Record<string, string> = {
    'content-security-policy': siteCsp(),
    'cache-control': space.visibility === 'public' && !space.passwordHash ? (asked ? 'public, max-age=31536000, immutable' : 'public, no-cache') : 'private, no-cache',
  };
  // Sandboxed pages' own requests do not carry the app's session: give members the space's cookie.
  if (viaSession && actor && (space.visibility === 'members' || space.passwordHash !== null)) {
    headers['set-cookie'] = cookieHeader(space.id, await issueSiteToken(space.id, 'member', actor.user.id, UNLOCK_LIFETIME));
  }
  const missing = entry ? null : await findEntry(refs, '404.html');
  if (!entry && !missing) return notFoundPage(null);
  const file = (entry ?? missing)!;
  const contentType = contentTypeOf(file.path, file.contentType);
  const response = await fileResponse(request, { sha256: file.sha256, size: file.size, contentType }, headers, entry ? 200 : 404);
  if (entry && response.status === 200 && request.method === 'GET' && contentType.startsWith('text/html') && !permissions.push) {
    await storeView(request, space.id, actor, { path: `/${path}`, version: asked ? number : null, referrer: request.headers.get('referer') });
  }
  return response;
}

/** The password form of a protected space posts here. */
export async function unlockSite(request: Request, id: string): Promise<Response> {
  const url = new URL(request.url);
  const form = await request.formData().catch(() => null);
  const password = form?.get('password');
  if (typeof password !== 'string') return passwordPage(400, 'Enter the password.');
  try {
    const { token } = await unlockSpace({ actor: null }, id, password, clientAddress(request));
    return new Response(null, { status: 303, headers: { location: url.toString(), 'set-cookie': cookieHeader(id, token), 'cache-control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'unauthorized') return passwordPage(401, 'Wrong password.');
    if (error.code === 'rate_limited') return passwordPage(429, error.message);
    return notFoundPage(null);
  }
}
