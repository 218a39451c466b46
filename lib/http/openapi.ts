// The OpenAPI 3.1.0 document, generated from the route table and the same zod
// schemas that validate requests.
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { errorBody } from '../schemas/common.ts';
import type { Endpoint } from '../schemas/endpoint.ts';
import { endpoints } from '../schemas/index.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request (bad_request)',
  401: 'Not signed in, or the token is invalid (unauthorized)',
  403: 'Not allowed (forbidden)',
  404: 'Not found, or not visible to the caller (not_found)',
  409: 'Conflict (conflict)',
  410: 'Expired or used up (gone)',
  413: 'Too large (too_large)',
  429: 'Too many requests (rate_limited)',
};

/** `/v1/files/{path...}` in the spec's notation is `/v1/files/{path}` in OpenAPI. */
export function openApiPath(path: string): string {
  return path.replace(/\{(\w+)\.\.\.\}/g, '{$1}');
}

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const success = endpoint.response === null
    ? endpoint.status
      ? { [String(endpoint.status)]: { description: 'The bytes of the file, not JSON.' } }
      : { '204': { description: 'Done; no content.' } }
    : {
        [String(endpoint.status ?? 200)]: {
          description: 'Success.',
          content: { 'application/json': { schema: endpoint.response } },
        },
      };
  const errors = Object.fromEntries(
    (endpoint.errors ?? []).map((status) => [
      String(status),
      { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorBody } } },
    ]),
  );
  return {
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: endpoint.auth === 'anonymous' ? [] : endpoint.auth === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }],
    ...(endpoint.params || endpoint.query
      ? { requestParams: { ...(endpoint.params && { path: endpoint.params }), ...(endpoint.query && { query: endpoint.query }) } }
      : {}),
    ...(endpoint.body && { requestBody: { content: { 'application/json': { schema: endpoint.body } } } }),
    responses: { ...success, ...errors },
  };
}

let cached: object | undefined;

export function openApiDocument(): object {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    const key = openApiPath(endpoint.path) as `/${string}`;
    paths[key] = { ...paths[key], [endpoint.method.toLowerCase()]: operation(endpoint) };
  }
  cached = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Atrium API',
      version: '1',
      description: 'Publishing and collaboration: spaces, workspaces, rooms and apps. Every route lives under /v1.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (atr_…) or a web session token (atrs_…).' },
      },
    },
    paths,
  });
  return cached;
}
