// Live apps (on their own hosts, or /a/<slug>/… on the app's origin):
// lib/apps/serving.ts decides, this file speaks
// HTTP: the app's cookie, the join-code form's POST, the data API's JSON, and
// the join-code and paused pages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_COOKIE_SECONDS, serveApp, type AppAnswer, type AppVisit } from '../lib/apps/serving.ts';
import { config } from '../lib/config.ts';
import { cookieValue, sessionActor } from './http/authenticate.ts';
import { limitBody } from './http/body.ts';
import { clientOf } from '../lib/core/client.ts';
import type { RequestContext } from './http/request-context.ts';
import { contentHostOf, contentIsSecure } from '../lib/spaces/hosts.ts';
import { headersOf, requestUrl, sendAnswer, sendWebResponse, toWebRequest } from './http/node.ts';
import { joinCodePage, notFoundPage, pausedPage, withHeaders } from './pages.ts';

/** A form or a row is a few kilobytes; far larger bodies are refused unread. */
const APP_BODY_LIMIT = 64 * 1024;
const SLUG = /^[a-z0-9-]{1,60}$/;

/** The app's cookie: its host's alone on its own host (`__Host-`, partitioned, as a site's), else scoped to /a/<slug>/. */
export function appCookie(where: AppVisit['where'], slug: string): string {
  if (where === 'app-origin') return `atrium_app_${slug}`;
  return contentIsSecure() ? '__Host-atrium_app' : 'atrium_app';
}

function cookieHeader(where: AppVisit['where'], slug: string, value: string): string {
  const lifetime = `Max-Age=${APP_COOKIE_SECONDS}`;
  if (where === 'own-host') {
    const scope = contentIsSecure() ? 'Secure; SameSite=None; Partitioned' : 'SameSite=Lax';
    return `${appCookie(where, slug)}=${value}; Path=/; HttpOnly; ${scope}; ${lifetime}`;
  }
  const secure = new URL(config.publicUrl).protocol === 'https:' ? '; Secure' : '';
  return `${appCookie(where, slug)}=${value}; Path=/a/${slug}/; HttpOnly; SameSite=Lax${secure}; ${lifetime}`;
}

/** The page (or JSON) of an answer that is not a stored file. */
function pageOf(answer: Exclude<AppAnswer, { kind: 'file' }>): Response {
  if (answer.kind === 'redirect') return new Response(null, { status: answer.status, headers: { location: answer.location, 'cache-control': 'no-store' } });
  if (answer.kind === 'code') return withHeaders(joinCodePage(answer.status, answer.name, answer.error, config.publicUrl), answer.headers);
  if (answer.kind === 'paused') return pausedPage(answer.name, config.publicUrl);
  if (answer.kind === 'json') return Response.json(answer.body, { status: answer.status, headers: { ...answer.headers, 'cache-control': 'no-store' } });
  return notFoundPage(answer.message, answer.signInUrl, config.publicUrl);
}

/**
 * Answers a request for a live app from Node's request, on its own host or
 * under /a/<slug>/ on the app's origin; a stored file is written straight out
 * (sendAnswer), as a site's.
 */
export async function answerApp(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string) {
  context.route = '/a/{slug}';
  const url = new URL(requestUrl(request, target));
  const host = contentHostOf(url.host);
  const [, , pathSlug = '', ...rest] = url.pathname.split('/');
  const where: AppVisit['where'] = host ? 'own-host' : 'app-origin';
  const slug = host ? (host.kind === 'app' ? host.slug : '') : pathSlug;
  const inner = host ? url.pathname.slice(1) : rest.join('/');
  if (!SLUG.test(slug)) return sendWebResponse(request, response, notFoundPage('There is nothing here.', null, config.publicUrl));
  const method = request.method ?? 'GET';
  if (!['GET', 'HEAD', 'POST'].includes(method)) {
    return sendWebResponse(request, response, new Response('Only GET, HEAD and POST are answered here.', { status: 405, headers: { allow: 'GET, HEAD, POST', 'content-type': 'text/plain; charset=utf-8' } }));
  }
  let code: string | null = null;
  let json: unknown;
  if (method === 'POST') {
    const type = request.headers['content-type'] ?? '';
    const body = limitBody(toWebRequest(request, url.href), APP_BODY_LIMIT);
    if (type.startsWith('application/json')) json = await body.json().catch(() => undefined);
    else {
      const form = await body.formData().catch(() => null);
      const value = form?.get('code');
      code = typeof value === 'string' ? value.slice(0, 100) : null;
    }
  }
  const headers = headersOf(request);
  const decided = await serveApp(
    {
      url,
      where,
      inner,
      method: method === 'HEAD' ? 'GET' : method,
      sessionActor: where === 'app-origin' ? await sessionActor(headers) : null,
      cookie: cookieValue(headers, appCookie(where, slug)),
      client: clientOf(headers),
      code,
      json,
    },
    slug,
  );
  await sendAnswer(request, response, decided.kind === 'file' ? decided.file : pageOf(decided), decided.grant ? cookieHeader(where, slug, decided.grant) : null);
}
