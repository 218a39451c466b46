// Unknown /v1 paths and methods a route lacks get the API's error envelope
// instead of Next's bare 404 page and empty 405.
import { NextResponse, type NextRequest } from 'next/server';
import { errorResponse } from './lib/http/errors.ts';
import { compileRoutes } from './lib/http/router.ts';
import { endpoints } from './lib/schemas/index.ts';

const allowedMethods = compileRoutes(endpoints);

export function proxy(request: NextRequest) {
  const methods = allowedMethods(request.nextUrl.pathname);
  if (!methods) return errorResponse('not_found', `No route ${request.nextUrl.pathname}; see /openapi.json.`);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (method === 'OPTIONS' || methods.has(method as never)) return NextResponse.next();
  const allow = [...methods].join(', ');
  return errorResponse('method_not_allowed', `${request.method} is not allowed on ${request.nextUrl.pathname}; use ${allow}.`, { allow });
}

// Next buffers the body of every request its proxy sees (and cuts it at
// 10 MB), so the routes that stream large bodies bypass the proxy: blobs,
// uploads, and the file lists of push plans and commits.
export const config = { matcher: '/v1/((?!spaces/[^/]+/(?:blobs/|uploads$|push/plan$|versions$)).*)' };
