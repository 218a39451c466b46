// The OpenAPI 3.1.0 document, generated from the route table and the same zod
// schemas that validate requests. test/http/openapi.test.ts lints it with
// Redocly's recommended rules and expects no problem at all.
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { sessionCookieName } from '../../lib/auth/session-cookie.ts';
import { config } from '../../lib/config.ts';
import { errorBody } from '../../lib/schemas/common.ts';
import type { Endpoint } from '../../lib/schemas/endpoint.ts';
import { endpoints } from '../../lib/schemas/index.ts';
import { billingApi } from '../../lib/schemas/billing.ts';
import { spacesApi } from '../../lib/schemas/spaces.ts';
import { liveSpacesApi, roomsApi } from '../../lib/schemas/rooms.ts';

/** Every 429 says when to try again. */
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } } as const;

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

/** Every tag the route table uses, with what it covers (a tag missing here fails the tests). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'Sign-in':
    'Signing in through the API: from the command line by a device code that a person approves in the web app, and by handle alone on development servers (DEV_AUTH). Sign-in by e-mail link, GitHub or Google happens in the web app.',
  Account: 'The signed-in account: its profile, handle, preferences and blocked users; deleting it.',
  Tokens: "The caller's API tokens and web sessions: list and revoke them.",
  Workspaces: 'Workspaces: create and rename them; members and their roles, invitations by handle and by link, the audit log.',
  Spaces:
    'Spaces: create, list and change them, who may see them (visibility, password, guests, viewers), what changed lately, page views and visitor statistics.',
  'Spaces: publishing': 'Publishing versions of a space: plan a push, upload the missing bytes, commit; then read versions, files and their history.',
  'Spaces: domains': "A space's custom domains: add a name of yours, verify that it reaches this Atrium, and the name serves the site; and the check Caddy's on-demand TLS asks.",
  'Spaces: uploads': 'One-off files kept beside a space: upload, list, download (directly or by a 5-minute link) and delete.',
  Billing:
    "A workspace's plan, its usage against the plan's limits, changing the plan through the billing provider (Stripe), its customer portal, and the provider's signed webhook. Without a provider the server enforces no plan limits unless its operator sets them.",
  'Spaces: comments':
    'Threads anchored to a quote of a published file (W3C text quote and position selectors, re-anchored in later versions), replies, resolution, edits with revisions, and guests who prove authorship with a key.',
  Rooms:
    'Rooms: a shared document of ordered pages with chat and presence over a WebSocket (ticket, then GET /v1/rooms/{id}/ws; its messages are described in [/asyncapi.json](/asyncapi.json), an AsyncAPI 3.0 document, and docs/realtime.md), people and invites, sources, and a Markdown export.',
  'Live spaces': 'Live spaces: rooms under their own prefix and plan limit, with image blocks and no AI suggestions.',
  'Spaces: database':
    "A sandboxed SQLite database per space: queries, guest writes by name, the write log, a SQL dump, reset and point-in-time restore within 30 days.",
  Webhooks:
    "Outgoing webhooks: a workspace's admins register HTTPS endpoints for its events (versions, comments, apps, members); each delivery is signed, retried for a day, and kept in a log to read and redeliver from. See docs/webhooks.md.",
  Apps: 'Apps: small web apps built from a room page (POST /v1/rooms/{id}/build), with a preview, going live at /a/<slug>/ with public, join-code or private access, promotion, rollback, end users, owner links and a zip export that runs on its own.',
  Search: "What the web app's ⌘K menu finds: the caller's workspaces, spaces, rooms, live spaces and apps by name, and files of their spaces' latest versions by path, filtered by current access.",
  Notifications:
    "The caller's inbox: @mentions in comments, replies to and resolutions of their threads, invitations, role changes and apps going live, each linked to its place; only about what the caller can still see.",
};

// The routes whose body is raw bytes rather than JSON.
const RAW_BODIES = new Map<Endpoint, string>([
  [spacesApi.putBlob, "The file's bytes; their sha256 must be the path's {sha256}."],
  [spacesApi.upload, 'The file\'s bytes; Content-Length is required. Any Content-Type may be sent: it is kept as the file\'s type (else it is guessed from the name).'],
  [billingApi.webhook, "A Stripe event, exactly as Stripe sent it (JSON): its Stripe-Signature header is checked against these bytes."],
  [liveSpacesApi.image, "The image's bytes (PNG, JPEG, GIF, WebP or AVIF, named by Content-Type); Content-Length is required."],
]);

// The routes whose body is multipart/form-data with one file in the field "file".
const MULTIPART_BODIES = new Set<Endpoint>([roomsApi.upload, liveSpacesApi.upload]);

const BINARY = { type: 'string', format: 'binary' } as const;

// Every operation can answer these, whatever the route table names.
const COMMON_ERRORS = {
  '405': { $ref: '#/components/responses/MethodNotAllowed' },
  '500': { $ref: '#/components/responses/InternalError' },
} as const;

const SECURITY: Record<Endpoint['auth'], Record<string, string[]>[]> = {
  user: [{ bearerAuth: [] }, { sessionCookie: [] }],
  web: [{ bearerAuth: [] }, { sessionCookie: [] }],
  // {} first: no credentials at all is allowed.
  optional: [{}, { bearerAuth: [] }, { sessionCookie: [] }],
  anonymous: [],
};

const AUTH_TEXT: Record<Endpoint['auth'], string> = {
  user: 'Needs a signed-in caller: an API token or a web session.',
  web: 'Needs a web session (a browser sign-in); API tokens are refused with 403.',
  optional: 'Works signed in or anonymously; what it returns depends on who calls.',
  anonymous: 'Reads no credentials.',
};

/** `/v1/files/{path...}` in the spec's notation is `/v1/files/{path}` in OpenAPI. */
export function openApiPath(path: string): string {
  return path.replace(/\{(\w+)\.\.\.\}/g, '{$1}');
}

/** `GET /v1/spaces/{id}/files/{path...}` → `getV1SpacesIdFilesPath`. */
export function operationId(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
  return `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
}

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const success = (endpoint.response === null
    ? endpoint.status
      ? { [String(endpoint.status)]: { description: "The file's bytes (not JSON), with its type as Content-Type.", content: { '*/*': { schema: BINARY } } } }
      : { '204': { description: 'Done; no content.' } }
    : {
        [String(endpoint.status ?? 200)]: {
          description: 'Success.',
          content: { 'application/json': { schema: endpoint.response } },
        },
      }) as ZodOpenApiResponsesObject;
  const errors = Object.fromEntries(
    (endpoint.errors ?? []).map((status) => [
      String(status),
      { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorBody } }, ...(status === 429 && { headers: RETRY_AFTER }) },
    ]),
  );
  const raw = RAW_BODIES.get(endpoint);
  return {
    operationId: operationId(endpoint),
    summary: endpoint.summary,
    description: AUTH_TEXT[endpoint.auth],
    tags: [endpoint.tag],
    security: SECURITY[endpoint.auth],
    ...(endpoint.params || endpoint.query
      ? { requestParams: { ...(endpoint.params && { path: endpoint.params }), ...(endpoint.query && { query: endpoint.query }) } }
      : {}),
    ...(endpoint.body && { requestBody: { required: true, content: { 'application/json': { schema: endpoint.body } } } }),
    ...(raw && {
      requestBody: { required: true, description: raw, content: { 'application/octet-stream': { schema: BINARY } } },
    }),
    ...(MULTIPART_BODIES.has(endpoint) && {
      requestBody: {
        required: true,
        description: 'The file, in the field "file"; at most MAX_SOURCE_BYTES.',
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: BINARY }, required: ['file'] } } },
      },
    }),
    responses: { ...success, ...errors, ...COMMON_ERRORS },
  };
}

/** The two socket routes the spec lists: WebSocket upgrades, described here as such and in full at /asyncapi.json. */
export const SOCKET_ROUTES = [
  { path: '/v1/rooms/{id}/ws', tag: 'Rooms', noun: 'room' },
  { path: '/v1/live-spaces/{id}/ws', tag: 'Live spaces', noun: 'live space' },
] as const;

function socketOperation({ path, tag, noun }: (typeof SOCKET_ROUTES)[number]): ZodOpenApiOperationObject {
  const refusal = (text: string) => ({ description: text, content: { 'application/json': { schema: errorBody } } });
  return {
    operationId: operationId({ method: 'GET', path }),
    summary: `Open the ${noun}'s socket (WebSocket upgrade)`,
    description: `Upgrades to a WebSocket speaking the Hocuspocus protocol: Yjs sync of the document, presence, and JSON stateless messages (chat, access, AI), described in /asyncapi.json and docs/realtime.md. The ticket is the credential: ask for one with POST ${path.replace(/\/ws$/, '/ticket')}; it opens one socket, once, within 60 seconds. Access is decided from the current state at the upgrade, at the Auth and at every re-check; losing it ends the socket (close code 4403).`,
    tags: [tag],
    security: [],
    requestParams: {
      path: z.object({ id: z.string().meta({ description: `The ${noun}'s id.` }) }),
      query: z.object({ ticket: z.string().meta({ description: 'From POST …/ticket.' }) }),
    },
    responses: {
      '101': { description: 'Switching Protocols: the socket is open. Send Auth (any token: the ticket said who you are) and sync step 1 for the document named by the id.' },
      '401': refusal('No ticket, or one that is not genuine, expired, already used or for another room (unauthorized).'),
      '404': refusal(`No such ${noun}, or the ticket's holder cannot see it now (not_found).`),
      '429': { ...refusal(`The ${noun} has ROOM_MAX_CONNECTIONS sockets on this node (rate_limited).`), headers: RETRY_AFTER },
      '503': refusal('This realtime node is stopping: fetch a fresh ticket and connect again (unavailable).'),
      ...COMMON_ERRORS,
    },
  };
}

const cached = new Map<string, object>();

/** The document, with `publicUrl` (default PUBLIC_URL) as its server. */
export function openApiDocument(publicUrl: string = config.publicUrl): object {
  const known = cached.get(publicUrl);
  if (known) return known;
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    const key = openApiPath(endpoint.path) as `/${string}`;
    paths[key] = { ...paths[key], [endpoint.method.toLowerCase()]: operation(endpoint) };
  }
  for (const route of SOCKET_ROUTES) paths[route.path] = { get: socketOperation(route) };
  const used = [...new Set(endpoints.map((e) => e.tag))];
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Atrium API',
      version: '1',
      // Only what the API offers today: say more as more exists.
      description:
        'Atrium publishes versioned static sites and files. This API covers spaces (publishing versions, reading files and their history, one-off uploads, visitor statistics), workspaces (members, roles, invitations, audit log, billing plans and limits), accounts and their API tokens, and signing in from the command line. Every route lives under /v1; every error is `{ "error": { "code", "message" } }`. The WebSocket messages of the `…/ws` routes are described at [/asyncapi.json](/asyncapi.json).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: publicUrl, description: 'This Atrium server' }],
    tags: used.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? '' })),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (atr_…) or a web session token (atrs_…).' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: sessionCookieName(publicUrl),
          description: 'The web session cookie of a browser signed in to Atrium; state-changing requests must come from its own pages.',
        },
      },
      responses: {
        MethodNotAllowed: {
          description: 'This path does not take that method (method_not_allowed); the Allow header lists the methods it takes.',
          headers: { Allow: { description: 'The methods the path takes, e.g. `GET, DELETE`.', schema: { type: 'string' } } },
          content: { 'application/json': { schema: errorBody } },
        },
        InternalError: {
          description: 'An unexpected failure on the server (internal_error); the log has the details.',
          content: { 'application/json': { schema: errorBody } },
        },
      },
    },
    paths,
  });
  cached.set(publicUrl, document);
  return document;
}
