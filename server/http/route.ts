// The one wrapper every /v1 route handler goes through: it authenticates,
// validates params, query and body against the endpoint's zod schemas and
// turns ApiError into the error envelope. Authorization is not decided here
// but in the domain code. The front server (server/) logs the request; the
// wrapper tells it who the caller was.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Caller, SignedInCaller } from '../../lib/core/caller.ts';
import type { Actor } from '../../lib/core/caller.ts';
import { config } from '../../lib/config.ts';
import { log } from '../../lib/log.ts';
import { failureResponse } from '../../lib/ops/failures.ts';
import type { Endpoint } from '../../lib/schemas/endpoint.ts';
import { authenticate } from './authenticate.ts';
import { checkDeclaredLength, incomingBody, JSON_BODY_LIMIT, readJsonBody } from './body.ts';
import type { IncomingBody } from '../../lib/core/body.ts';
import { callerOf } from '../../lib/core/client.ts';
import { ApiError, errorResponse } from '../../lib/core/errors.ts';
import { fileResponse } from './files.ts';
import { FileAnswer } from '../../lib/core/files.ts';
import { requestContext } from './request-context.ts';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

type Context<E extends Endpoint> =
  E extends Endpoint<infer A, infer P, infer Q, infer B>
    ? {
        requestId: string;
        /** Who is asking; signed in on `user` and `web` routes. */
        caller: A extends 'user' | 'web' ? SignedInCaller : Caller & { actor: A extends 'optional' ? Actor | null : null };
        params: Infer<P>;
        query: Infer<Q>;
        /** The validated body (endpoints with the default body cap). */
        body: Infer<B>;
        /** Reads and validates the body; for endpoints with a larger cap, call it after the permission check. */
        readBody: () => Promise<Infer<B>>;
        /** The raw body of routes that take bytes, unread. */
        rawBody: IncomingBody;
      }
    : never;

type Output<E extends Endpoint> = E['response'] extends z.ZodType ? z.input<E['response']> : void | FileAnswer;

type NextContext = { params: Promise<Record<string, string | string[]>> };

const REQUEST_ID = /^[\w.:-]{1,64}$/;

function describeIssue(location: string, issue: z.core.$ZodIssue): string {
  const where = [location, ...issue.path.map(String)].join('.');
  return `${where}: ${issue.message}`;
}

function validate<S extends z.ZodType>(schema: S, value: unknown, location: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError('bad_request', describeIssue(location, result.error.issues[0]));
  return result.data;
}

function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams.entries());
}

async function resolveActor(endpoint: Endpoint, request: Request): Promise<Actor | null> {
  if (endpoint.auth === 'anonymous') return null;
  const actor = await authenticate(request, { recent: endpoint.checksOwnToken === true });
  if (endpoint.auth === 'optional') return actor;
  if (!actor) throw new ApiError('unauthorized', 'Sign in first: send "Authorization: Bearer <token>".');
  if (endpoint.auth === 'web' && actor.token.kind !== 'web') {
    throw new ApiError('forbidden', 'This route needs a web session; API tokens cannot use it.');
  }
  return actor;
}

async function successResponse(endpoint: Endpoint, request: Request, output: unknown): Promise<Response> {
  if (output instanceof Response) return output;
  if (output instanceof FileAnswer) return fileResponse(request, output);
  if (endpoint.response === null) return new Response(null, { status: 204 });
  // Outside production every answer is checked against its documented schema,
  // so the OpenAPI document cannot drift from what the handlers return.
  if (config.nodeEnv !== 'production') {
    const checked = endpoint.response.safeParse(output);
    if (!checked.success) {
      throw new Error(`Response of ${endpoint.method} ${endpoint.path} breaks its schema: ${describeIssue('response', checked.error.issues[0])}`);
    }
  }
  return Response.json(output, { status: endpoint.status ?? 200 });
}

/** The body reader of a request: once, capped, validated. */
function bodyReader(endpoint: Endpoint, request: Request): () => Promise<unknown> {
  let read: Promise<unknown> | undefined;
  return () => {
    if (!endpoint.body) return Promise.resolve(undefined);
    read ??= readJsonBody(request, endpoint.maxBodyBytes ?? JSON_BODY_LIMIT).then((json) => validate(endpoint.body!, json, 'body'));
    return read;
  };
}

export function route<E extends Endpoint>(endpoint: E, handler: (context: Context<E>) => Promise<Output<E> | Response>) {
  return async (request: Request, next: NextContext): Promise<Response> => {
    const shared = requestContext.getStore();
    const incoming = request.headers.get('x-request-id');
    const requestId = shared?.requestId ?? (incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID());
    let response: Response;
    try {
      const actor = await resolveActor(endpoint, request);
      if (shared && actor) shared.userId = actor.user.id;
      const caller = callerOf(request, actor);
      const url = new URL(request.url);
      const readBody = bodyReader(endpoint, request);
      const params = endpoint.params ? validate(endpoint.params, await next.params, 'params') : undefined;
      const query = endpoint.query ? validate(endpoint.query, queryObject(url), 'query') : undefined;
      if (endpoint.body) checkDeclaredLength(request, endpoint.maxBodyBytes ?? JSON_BODY_LIMIT);
      const eager = endpoint.maxBodyBytes === undefined || endpoint.maxBodyBytes <= JSON_BODY_LIMIT;
      const context = { requestId, caller, params, query, readBody, rawBody: incomingBody(request), body: eager ? await readBody() : undefined };
      if (!eager) {
        Object.defineProperty(context, 'body', {
          get() {
            throw new Error(`${endpoint.method} ${endpoint.path} takes large bodies: read them with readBody() after the permission check.`);
          },
        });
      }
      response = await successResponse(endpoint, request, await handler(context as Context<E>));
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error);
      } else if (request.signal.aborted) {
        // The client went away mid-body: nothing failed here, and nobody reads this answer.
        log.info('request aborted by the client', { requestId, route: endpoint.path });
        response = errorResponse('bad_request', 'The request body was cut short.');
      } else {
        response = failureResponse(error, requestId, endpoint.path);
      }
    }
    response.headers.set('x-request-id', requestId);
    return response;
  };
}

export type { Context as RouteContext };
