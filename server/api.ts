// /v1: every API request is answered here by calling its route module, found
// by its file path (the URL is the file's path), so the route files stay the
// one definition of each route. Before routing, the raw path is checked:
// malformed escapes, `.`/`..` segments (also encoded) and empty segments are
// refused, since normalising them would route a request somewhere it did not
// name (DELETE /v1/me/blocks/%2e%2e must never become DELETE /v1/me).
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ApiError, errorResponse } from '../lib/core/errors.ts';
import type { RequestContext } from './http/request-context.ts';
import { compileRoutes } from './http/router.ts';
import type { Method } from '../lib/schemas/endpoint.ts';
import { endpoints } from '../lib/schemas/index.ts';
import { requestUrl, sendWebResponse, toWebRequest } from './http/node.ts';

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const root = path.resolve(import.meta.dirname, '..');
const match = compileRoutes(endpoints);
const modules = new Map<string, Promise<Record<string, Handler | undefined>>>();

/** `/v1/spaces/{id}/files/{path...}` -> `app/v1/spaces/[id]/files/[...path]/route.ts` */
export function routeFile(specPath: string): string {
  const folder = specPath.replace(/\{(\w+)\.\.\.\}/g, '[...$1]').replace(/\{(\w+)\}/g, '[$1]');
  return path.join(root, 'app', folder, 'route.ts');
}

function routeModule(specPath: string) {
  let loaded = modules.get(specPath);
  if (!loaded) {
    loaded = import(routeFile(specPath));
    modules.set(specPath, loaded);
  }
  return loaded;
}

/** The decoded segments of a raw request path; ApiError for one that cannot name a route. */
export function pathSegments(rawPath: string): string[] {
  const raw = rawPath.split('/').slice(1);
  return raw.map((segment, i) => {
    if (segment === '') {
      throw new ApiError('bad_request', `The path ${rawPath} has an empty segment${i === raw.length - 1 ? ' (a trailing slash)' : ''}.`);
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new ApiError('bad_request', `The path segment "${segment}" has a malformed percent-escape.`);
    }
    if (decoded === '.' || decoded === '..') throw new ApiError('bad_request', 'A path may not contain "." or ".." segments.');
    return decoded;
  });
}

async function answer(request: IncomingMessage, context: RequestContext, target: string, rawPath: string): Promise<Response> {
  const found = match(pathSegments(rawPath));
  if (!found) return errorResponse('not_found', `No route ${rawPath}; see /openapi.json.`);
  context.route = found.path;
  const allow = [...found.endpoints.keys()].join(', ');
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
  const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
  const handler = found.endpoints.has(method) ? (await routeModule(found.path))[method] : undefined;
  if (!handler) {
    return errorResponse('method_not_allowed', `${request.method} is not allowed on ${rawPath}; use ${allow}.`, { allow });
  }
  return handler(toWebRequest(request, requestUrl(request, target), method), { params: Promise.resolve(found.params) });
}

export async function answerApi(request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) {
  let result: Response;
  context.route = '/v1';
  try {
    result = await answer(request, context, target, rawPath);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    result = errorResponse(error);
  }
  await sendWebResponse(request, response, result);
}
