// Published sites (/s/<id>/…) and download links (/dl/<ticket>), answered by
// the same domain functions in development, production and tests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorResponse } from '../lib/http/errors.ts';
import type { RequestContext } from '../lib/http/request-context.ts';
import { downloadByTicket } from '../lib/spaces/downloads.ts';
import { serveSite, unlockSite } from '../lib/spaces/serving.ts';
import { requestUrl, sendWebResponse, toWebRequest } from './http.ts';
import { limitBody } from '../lib/http/body.ts';

/** The password form posts a few dozen bytes; anything far larger is refused unread. */
const SITE_FORM_LIMIT = 16 * 1024;

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export async function answerDownload(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  context.route = '/dl/{ticket}';
  const parts = rawPath.split('/').slice(2);
  const ticket = parts.length === 1 ? decodedSegment(parts[0]) : null;
  let answer: Response;
  if (!ticket) answer = errorResponse('not_found', 'This download link is not valid; ask for a new one.');
  else if (request.method !== 'GET' && request.method !== 'HEAD') answer = errorResponse('method_not_allowed', `${request.method} is not allowed on a download link; use GET.`, { allow: 'GET' });
  else answer = await downloadByTicket(toWebRequest(request, requestUrl(request, target), 'GET'), ticket);
  await sendWebResponse(request, response, answer);
}

export async function answerSite(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  context.route = '/s/{id}';
  const id = decodedSegment(rawPath.split('/')[2] ?? '');
  const method = request.method ?? 'GET';
  let answer: Response;
  if (!id || !['GET', 'HEAD', 'POST'].includes(method)) {
    answer = new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  } else if (method === 'POST') {
    try {
      answer = await unlockSite(limitBody(toWebRequest(request, requestUrl(request, target)), SITE_FORM_LIMIT), id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      answer = new Response(error.message, { status: error.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
  } else {
    answer = await serveSite(toWebRequest(request, requestUrl(request, target), method), id);
  }
  await sendWebResponse(request, response, answer);
}
