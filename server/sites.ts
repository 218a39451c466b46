// Published sites (/s/<id>/…) and download links (/dl/<ticket>), answered by
// the same code in development, production and tests. The domain
// (lib/spaces/serving.ts, downloads.ts) decides; this file speaks HTTP: it
// reads the cookies, sets the space's cookie, and renders the pages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../lib/config.ts';
import { cookieValue, sessionActor } from '../lib/http/authenticate.ts';
import { limitBody } from '../lib/http/body.ts';
import { callerOf, clientOf } from '../lib/http/client.ts';
import { ApiError, errorResponse } from '../lib/http/errors.ts';
import { fileResponse } from '../lib/http/files.ts';
import type { RequestContext } from '../lib/http/request-context.ts';
import { downloadByTicket } from '../lib/spaces/downloads.ts';
import { serveSite, SITE_TOKEN_LIFETIME, unlockSite, type SiteAnswer } from '../lib/spaces/serving.ts';
import { requestUrl, sendWebResponse, toWebRequest } from './http.ts';
import { notFoundPage, passwordPage } from './pages.ts';

/** The password form posts a few dozen bytes; anything far larger is refused unread. */
const SITE_FORM_LIMIT = 16 * 1024;

/** The cookie that lets a visitor into a protected or members-only space. */
export const spaceCookie = (spaceId: string) => `atrium_space_${spaceId}`;

// Sandboxed pages' own requests (images, scripts) carry the space's cookie
// only as SameSite=None, which browsers allow over https and on localhost.
function cookieHeader(spaceId: string, token: string): string {
  const content = new URL(config.contentBaseUrl);
  const secure = content.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(content.hostname);
  const sameSite = secure ? 'SameSite=None; Secure' : 'SameSite=Lax';
  return `${spaceCookie(spaceId)}=${token}; Path=/s/${spaceId}/; HttpOnly; ${sameSite}; Max-Age=${SITE_TOKEN_LIFETIME / 1000}`;
}

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return null;
  }
}

async function render(request: Request, spaceId: string, answer: SiteAnswer): Promise<Response> {
  let response: Response;
  if (answer.kind === 'file') response = await fileResponse(request, answer.file);
  else if (answer.kind === 'redirect') response = new Response(null, { status: answer.status, headers: { location: answer.location, 'cache-control': 'no-store' } });
  else if (answer.kind === 'password') response = passwordPage(answer.status, answer.error, config.publicUrl);
  else response = notFoundPage(answer.message, answer.signInUrl, config.publicUrl);
  if (answer.grant) response.headers.append('set-cookie', cookieHeader(spaceId, answer.grant));
  return response;
}

/** A published site's answer to a request under /s/<id>/. */
export async function siteResponse(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const id = decodedSegment(url.pathname.split('/')[2] ?? '');
  if (!id) return notFoundPage('There is nothing here.', null, config.publicUrl);
  if (request.method === 'POST') {
    const form = await limitBody(request, SITE_FORM_LIMIT)
      .formData()
      .catch(() => null);
    const password = form?.get('password');
    return render(request, id, await unlockSite(callerOf(request, null), url, id, typeof password === 'string' ? password : null));
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Only GET, HEAD and the password form\'s POST are answered here.', { status: 405, headers: { allow: 'GET, HEAD, POST', 'content-type': 'text/plain; charset=utf-8' } });
  }
  const visit = {
    url,
    method: request.method,
    sessionActor: await sessionActor(request),
    siteToken: cookieValue(request, spaceCookie(id)),
    client: clientOf(request),
    referrer: request.headers.get('referer'),
  } as const;
  return render(request, id, await serveSite(visit, id));
}

/** A /dl/<ticket> link: no sign-in, one file, 5 minutes. Errors are the API's envelope. */
export async function downloadResponse(request: Request): Promise<Response> {
  const parts = new URL(request.url).pathname.split('/').slice(2);
  const ticket = parts.length === 1 ? decodedSegment(parts[0]) : null;
  if (!ticket) return errorResponse('not_found', 'This download link is not valid; ask for a new one.');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorResponse('method_not_allowed', `${request.method} is not allowed on a download link; use GET.`, { allow: 'GET' });
  }
  try {
    return await fileResponse(request, await downloadByTicket(ticket));
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.code, error.message, error.headers);
    throw error;
  }
}

export async function answerDownload(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  context.route = '/dl/{ticket}';
  // The raw path, not the URL parser's: a malformed escape must not become a different ticket.
  const parts = rawPath.split('/').slice(2);
  const valid = parts.length === 1 && decodedSegment(parts[0]) !== null;
  const answer = valid
    ? await downloadResponse(toWebRequest(request, requestUrl(request, target), request.method === 'HEAD' ? 'HEAD' : request.method))
    : errorResponse('not_found', 'This download link is not valid; ask for a new one.');
  await sendWebResponse(request, response, answer);
}

export async function answerSite(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  context.route = '/s/{id}';
  const valid = decodedSegment(rawPath.split('/')[2] ?? '') !== null;
  const answer = valid ? await siteResponse(toWebRequest(request, requestUrl(request, target))) : notFoundPage('There is nothing here.', null, config.publicUrl);
  await sendWebResponse(request, response, answer);
}
