// Published sites (on their own hosts, or /s/<id>/… on the app's origin) and
// download links (/dl/<ticket>), answered by the same code in development,
// production and tests. The domain (lib/spaces/serving.ts, downloads.ts)
// decides; this file speaks HTTP: it reads the cookies, sets the site's
// cookie, and renders the pages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor } from '../lib/core/caller.ts';
import { config } from '../lib/config.ts';
import { cookieValue, sessionActor } from './http/authenticate.ts';
import { limitBody } from './http/body.ts';
import { callerOf, clientOf, type HeaderReader } from '../lib/core/client.ts';
import { ApiError, errorResponse } from '../lib/core/errors.ts';
import type { FileAnswer } from '../lib/core/files.ts';
import type { RequestContext } from './http/request-context.ts';
import { downloadByTicket } from '../lib/spaces/downloads.ts';
import { ALIAS_PATTERN } from '../lib/schemas/spaces.ts';
import { contentHostOf, contentIsSecure } from '../lib/spaces/hosts.ts';
import { serveSite, SITE_TOKEN_LIFETIME, unlockSite, type SiteAnswer, type SiteVisit } from '../lib/spaces/serving.ts';
import { headersOf, requestUrl, sendAnswer, sendWebResponse, toWebRequest } from './http/node.ts';
import { notFoundPage, passwordPage, withHeaders } from './pages.ts';

/** The password form posts a few dozen bytes; anything far larger is refused unread. */
const SITE_FORM_LIMIT = 16 * 1024;

/**
 * The cookie that lets a visitor into a protected or members-only space. On
 * the site's own host it is the host's alone (`__Host-`: no sibling site can
 * set or overwrite it) and partitioned, so that the app's preview frames get
 * one of their own. On the app's origin (no content domain) it is scoped to
 * the space's path, and SameSite=None where allowed, for the sandboxed page's
 * own requests.
 */
export function spaceCookie(site: SiteAddress): string {
  if (site.where === 'app-origin') return `atrium_space_${site.id}`;
  return site.secure ? '__Host-atrium_space' : 'atrium_space';
}

function cookieHeader(site: SiteAddress, token: string): string {
  const lifetime = `Max-Age=${SITE_TOKEN_LIFETIME / 1000}`;
  if (site.where === 'own-host') {
    const scope = site.secure ? 'Secure; SameSite=None; Partitioned' : 'SameSite=Lax';
    return `${spaceCookie(site)}=${token}; Path=/; HttpOnly; ${scope}; ${lifetime}`;
  }
  const spaceId = site.id;
  const app = new URL(config.publicUrl);
  const secure = app.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(app.hostname);
  return `${spaceCookie(site)}=${token}; Path=/s/${spaceId}/; HttpOnly; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}; ${lifetime}`;
}

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return null;
  }
}

/** An answer that is not a stored file: a redirect, the password form, not found. */
function pageOf(answer: Exclude<SiteAnswer, { kind: 'file' }>): Response {
  if (answer.kind === 'redirect') return new Response(null, { status: answer.status, headers: { location: answer.location, 'cache-control': 'no-store' } });
  if (answer.kind === 'password') return withHeaders(passwordPage(answer.status, answer.error, answer.memberUrl, config.publicUrl), answer.headers);
  return notFoundPage(answer.message, answer.signInUrl, config.publicUrl);
}

/** A site as one request addresses it; `secure`: whether its own host's cookie can be Secure. */
export type SiteAddress = { id: string; alias: string | null; domain: string | null; where: SiteVisit['where']; inner: string; secure: boolean };

/** Which site a request is for, and where: its own host (or an alias's), or /s/<id>/ (/s/<id>/~<alias>/) on the app's origin. */
function siteOf(url: URL): SiteAddress | null {
  const host = contentHostOf(url.host);
  if (host) return host.kind === 'space' ? { id: host.id, alias: host.alias, domain: null, where: 'own-host', inner: url.pathname.slice(1), secure: contentIsSecure() } : null;
  const [, prefix, segment = '', ...rest] = url.pathname.split('/');
  const id = prefix === 's' ? decodedSegment(segment) : null;
  if (!id) return null;
  if (!rest[0]?.startsWith('~')) return { id, alias: null, domain: null, where: 'app-origin', inner: rest.join('/'), secure: false };
  const alias = rest[0].slice(1);
  return ALIAS_PATTERN.test(alias) ? { id, alias, domain: null, where: 'app-origin', inner: rest.slice(1).join('/'), secure: false } : null;
}

/** A custom domain's request: the space's site at the name, its cookie Secure when the visitor came over https. */
export function domainSite(url: URL, spaceId: string): SiteAddress {
  return { id: spaceId, alias: null, domain: url.hostname, where: 'own-host', inner: url.pathname.slice(1), secure: url.protocol === 'https:' };
}

function visitOf(request: { headers: HeaderReader }, url: URL, site: SiteAddress, method: 'GET' | 'HEAD', session: Actor | null): SiteVisit {
  return {
    url,
    where: site.where,
    inner: site.inner,
    alias: site.alias,
    domain: site.domain,
    method,
    sessionActor: session,
    siteToken: cookieValue(request, spaceCookie(site)),
    client: clientOf(request),
    referrer: request.headers.get('referer'),
    fetchSite: request.headers.get('sec-fetch-site'),
    fetchMode: request.headers.get('sec-fetch-mode'),
    acceptLanguage: request.headers.get('accept-language'),
  };
}

/**
 * Answers a request for a site from Node's request, wherever it came: its own
 * host, a custom domain or /s/<id>/ on the app's origin. A stored file is
 * written straight out (sendAnswer); the password form's POST is the one body
 * read.
 */
async function answerVisit(request: IncomingMessage, response: ServerResponse, url: URL, site: SiteAddress | null): Promise<void> {
  if (!site) return sendWebResponse(request, response, notFoundPage('There is nothing here.', null, config.publicUrl));
  const { id, where } = site;
  const headers = headersOf(request);
  const answer = (decided: SiteAnswer) =>
    sendAnswer(request, response, decided.kind === 'file' ? decided.file : pageOf(decided), decided.grant ? cookieHeader(site, decided.grant) : null);
  // With hosts of their own, a site's password is only ever entered on its host.
  if (request.method === 'POST' && (where === 'own-host' || config.contentDomain === null)) {
    const form = await limitBody(toWebRequest(request, url.href), SITE_FORM_LIMIT)
      .formData()
      .catch(() => null);
    const password = form?.get('password');
    return answer(await unlockSite(callerOf(headers, null), url, id, typeof password === 'string' ? password : null));
  }
  if (!['GET', 'HEAD', 'POST'].includes(request.method ?? '')) {
    return sendWebResponse(request, response, new Response('Only GET, HEAD and the password form\'s POST are answered here.', { status: 405, headers: { allow: 'GET, HEAD, POST', 'content-type': 'text/plain; charset=utf-8' } }));
  }
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  return answer(await serveSite(visitOf(headers, url, site, method, where === 'app-origin' ? await sessionActor(headers) : null), id));
}

/**
 * A /dl/<ticket> link: no sign-in, one file, 5 minutes. The stored file is
 * written straight out (sendAnswer), as a site's is; errors are the API's envelope.
 */
export async function answerDownload(request: IncomingMessage, response: ServerResponse, context: RequestContext, _target: string, rawPath: string) {
  context.route = '/dl/{ticket}';
  // The raw path, not the URL parser's: a malformed escape must not become a different ticket.
  const parts = rawPath.split('/').slice(2);
  const ticket = parts.length === 1 ? decodedSegment(parts[0]) : null;
  if (!ticket) return sendWebResponse(request, response, errorResponse('not_found', 'This download link is not valid; ask for a new one.'));
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendWebResponse(request, response, errorResponse('method_not_allowed', `${request.method} is not allowed on a download link; use GET.`, { allow: 'GET' }));
  }
  let file: FileAnswer;
  try {
    file = await downloadByTicket(ticket);
  } catch (error) {
    if (error instanceof ApiError) return sendWebResponse(request, response, errorResponse(error));
    throw error;
  }
  await sendAnswer(request, response, file, null);
}

/** A request whose Host is a space's verified custom domain: the space's site. */
export function domainAnswerer(domain: { spaceId: string }) {
  return async (request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string) => {
    context.route = 'custom-domain';
    const url = new URL(requestUrl(request, target));
    return answerVisit(request, response, url, domainSite(url, domain.spaceId));
  };
}

export async function answerSite(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  context.route = '/s/{id}';
  const onAppOrigin = contentHostOf(request.headers.host) === null;
  const valid = !onAppOrigin || decodedSegment(rawPath.split('/')[2] ?? '') !== null;
  if (!valid) return sendWebResponse(request, response, notFoundPage('There is nothing here.', null, config.publicUrl));
  const url = new URL(requestUrl(request, target));
  await answerVisit(request, response, url, siteOf(url));
}
