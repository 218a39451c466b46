// Malformed input for every endpoint of the route table, through the real front
// server over real sockets, anonymously and as the signed-in owner of a real
// workspace and space (so that the domain code runs, not only the 404 path).
// Each case starts from the endpoint's valid example request (world.ts) and
// breaks one thing: a path segment, a query value, a body field (found by
// walking the endpoint's zod schemas, so new fields are covered), the body as a
// whole, its type or size, the credentials, the method. Whatever is sent, the
// answer is never a 5xx, and every error answer under /v1 and /dl is the JSON
// envelope {error:{code,message}}. All offenders are listed at once.
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { config } from '@/lib/config.ts';
import { JSON_BODY_LIMIT } from '@/server/http/body.ts';
import type { Endpoint, Method } from '@/lib/schemas/endpoint.ts';
import { endpoints } from '@/lib/schemas/index.ts';
import { useFrontServer } from '../server.ts';
import { inBatches, isEnvelope, rawRequest, type RawAnswer } from './raw.ts';
import { endpointIds, examples, fillPath, World, type Example, type Person, type Role, type SpaceKind } from './world.ts';

const server = useFrontServer();

// --- walking the zod schemas ------------------------------------------------------

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; shape?: Record<string, z.ZodType>; element?: z.ZodType };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional, nullable, default and the input side of pipes (transforms). */
function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(schema);
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) schema = def.innerType!;
    else if (def.type === 'pipe') schema = defOf(def.in!).type === 'transform' ? def.out! : def.in!;
    else return schema;
  }
}

type Field = { at: (string | number)[]; required: boolean };

/** Every field of a body schema, nested objects and the first element of arrays included. */
function fieldsOf(schema: z.ZodType, at: (string | number)[] = []): Field[] {
  const def = defOf(unwrap(schema));
  const out: Field[] = [];
  if (def.type === 'object') {
    for (const [key, field] of Object.entries(def.shape!)) {
      out.push({ at: [...at, key], required: !field.safeParse(undefined).success }, ...fieldsOf(field, [...at, key]));
    }
  } else if (def.type === 'array') {
    out.push({ at: [...at, 0], required: false }, ...fieldsOf(def.element!, [...at, 0]));
  }
  return out;
}

const keysOf = (schema: z.ZodType | undefined) => (schema ? Object.keys(defOf(unwrap(schema)).shape ?? {}) : []);

// --- what is sent -----------------------------------------------------------------

/** JSON text put in place of one field's value: control characters, lone surrogates, wrong types, extremes. */
const BAD_VALUES: [string, string][] = [
  ['NUL', '"\\u0000"'],
  ['NUL inside', '"a\\u0000b"'],
  ['lone high surrogate', '"\\ud800"'],
  ['lone low surrogate inside', '"x\\udfffy"'],
  ['empty string', '""'],
  ['100k string', JSON.stringify('x'.repeat(100_000))],
  ['dot segments', '"../../x"'],
  ['zero', '0'],
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['1e309', '1e309'],
  ['-1e309', '-1e309'],
  ['2^53+1', '9007199254740993'],
  ['true', 'true'],
  ['null', 'null'],
  ['empty array', '[]'],
  ['empty object', '{}'],
  ['array of string', '["x"]'],
  ['numeric string', '"1"'],
];

/** Raw (already escaped) replacements of one path segment. */
const BAD_SEGMENTS = ['%', '%zz', '%ff', '%E0%A4%A', '%00', 'a%00b', '%ED%A0%80', '%C0%AE', '..', '.', '%2e%2E', '%2F', 'x'.repeat(3000)];
const BAD_LITERAL_SEGMENTS = ['%zz', '%00', '..'];
/** Raw replacements of one query value. */
const BAD_QUERY = ['%00', 'a%00b', '%ED%A0%80', '%zz', '', '-1', '1.5', '1e309', '99999999999999999999', '0x10', 'x'.repeat(5000)];

const BAD_AUTH: [string, Record<string, string>][] = [
  ['Bearer with nothing', { authorization: 'Bearer' }],
  ['Bearer and a space', { authorization: 'Bearer ' }],
  ['Basic', { authorization: 'Basic x' }],
  ['10 KB token', { authorization: `Bearer atr_${'a'.repeat(10 * 1024)}` }],
  ['non-ASCII token', { authorization: 'Bearer atr_t\u00f6k\u00e9n\u00ff' }],
  ['two tokens', { authorization: 'Bearer a b' }],
  ['empty session cookie', { cookie: 'atrium_session=' }],
  ['junk session cookie', { cookie: 'atrium_session=%ff%00junk; atrium_session=atr_x' }],
  ['8 KB session cookie', { cookie: `atrium_session=${'z'.repeat(8 * 1024)}` }],
  ['bad token and cookie', { authorization: 'Bearer nope', cookie: 'atrium_session=nope' }],
];

const INVALID_BODIES: [string, string | Buffer][] = [
  ['truncated JSON', '{"a":'],
  ['not JSON', 'nul'],
  ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d])],
  ['a surrogate as raw UTF-8 bytes', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])],
  ['array', '[]'],
  ['string', '"text"'],
  ['number', '42'],
  ['null', 'null'],
  ['true', 'true'],
  ['array of objects', '[{}]'],
  ['deep nesting', `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
  ['__proto__', '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}'],
  ['whitespace', '   '],
];

const CONTENT_TYPES = ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=utf-16'];

const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type Case = {
  label: string;
  method: string;
  path: string;
  /** 'caller': the example's caller's token; otherwise exactly these headers. */
  auth: 'caller' | Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunks?: Buffer[];
  /** A status the case must get besides "no 5xx, the envelope". */
  status?: number;
  /** Builds the example again for this case (its call consumes its caller). */
  fresh?: () => Promise<Example>;
};

const MARK = '\u0001FUZZ\u0001';

function setAt(target: any, at: (string | number)[], value: unknown): any {
  const root = structuredClone(target ?? {});
  let node = root;
  at.forEach((key, i) => {
    if (i === at.length - 1) {
      if (value === undefined) delete node[key];
      else node[key] = value;
      return;
    }
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = typeof at[i + 1] === 'number' ? [] : {};
    node = node[key];
  });
  return root;
}

/** The body with the value at `at` replaced by raw JSON text. */
function withRawValue(body: unknown, at: (string | number)[], json: string): string {
  return JSON.stringify(setAt(body, at, MARK)).replace(JSON.stringify(MARK), json);
}

function queryString(query: Record<string, string>, raw: Record<string, string> = {}): string {
  const parts = Object.entries(query)
    .filter(([key]) => !(key in raw))
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  for (const [key, value] of Object.entries(raw)) parts.push(`${key}=${value}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Every malformed request made from one endpoint's valid example. */
function casesFor(id: string, endpoint: Endpoint, example: Example, fresh: (() => Promise<Example>) | undefined, cookieHolder: Person): Case[] {
  const cases: Case[] = [];
  const params = example.params ?? {};
  const query = example.query ?? {};
  const path = fillPath(endpoint.path, params);
  const search = queryString(query);
  const jsonBody = endpoint.body ? JSON.stringify(example.body ?? {}) : undefined;
  const base = { method: endpoint.method, auth: 'caller' as const, fresh };
  const validBody = example.raw ?? jsonBody;
  const bodyHeaders = example.raw ? (example.headers ?? {}) : jsonBody !== undefined ? JSON_TYPE : {};
  const add = (c: Omit<Case, 'method' | 'auth'> & Partial<Pick<Case, 'method' | 'auth'>>) => cases.push({ ...base, ...c });

  // Path segments: bad escapes, NUL and surrogates, dot segments, in each one.
  const segments = path.split('/');
  const template = endpoint.path.split('/');
  const restAt = template.findIndex((s) => s.endsWith('...}'));
  for (let i = 2; i < segments.length; i++) {
    const isParam = template[i]?.startsWith('{') || (restAt >= 0 && i >= restAt);
    for (const bad of isParam ? BAD_SEGMENTS : BAD_LITERAL_SEGMENTS) {
      const broken = [...segments.slice(0, i), bad, ...segments.slice(i + 1)].join('/');
      add({ label: `segment ${i} = ${bad.slice(0, 20)}`, path: broken + search, headers: bodyHeaders, body: validBody });
    }
  }
  for (const suffix of ['/..', '/.', '/%2e%2e', '//', '/x/../..']) add({ label: `path + ${suffix}`, path: path + suffix + search, headers: bodyHeaders, body: validBody });
  add({ label: 'dot segment after /v1', path: `/v1/./${path.slice(4)}${search}`, headers: bodyHeaders, body: validBody });
  add({ label: 'dot-dot after /v1', path: `/v1/../${path.slice(4)}${search}`, headers: bodyHeaders, body: validBody });

  // Query values.
  for (const key of keysOf(endpoint.query)) {
    for (const bad of BAD_QUERY) add({ label: `query ${key}=${bad.slice(0, 20)}`, path: path + queryString(query, { [key]: bad }), headers: bodyHeaders, body: validBody });
    add({ label: `query ${key} twice`, path: path + queryString(query, { [key]: `1&${key}=2` }), headers: bodyHeaders, body: validBody });
    add({ label: `query ${key}[]`, path: path + queryString(query, { [`${key}[]`]: '1' }), headers: bodyHeaders, body: validBody });
  }
  add({ label: 'unknown query', path: `${path}${search ? `${search}&` : '?'}%00=%ED%A0%80&__proto__=1`, headers: bodyHeaders, body: validBody });

  // Body fields, from the schema.
  if (endpoint.body) {
    for (const field of fieldsOf(endpoint.body)) {
      const name = field.at.join('.');
      for (const [label, json] of BAD_VALUES) add({ label: `body ${name} = ${label}`, path: path + search, headers: JSON_TYPE, body: withRawValue(example.body, field.at, json) });
      if (field.required) add({ label: `body without ${name}`, path: path + search, headers: JSON_TYPE, body: JSON.stringify(setAt(example.body, field.at, undefined)) });
    }
    add({ label: 'body with an unknown field', path: path + search, headers: JSON_TYPE, body: withRawValue(example.body, ['unexpected\u0000'], '"\\ud800"') });
    add({ label: 'empty JSON body', path: path + search, headers: JSON_TYPE, body: '' });
    for (const [label, body] of INVALID_BODIES) add({ label: `body: ${label}`, path: path + search, headers: JSON_TYPE, body });
  }

  // Bodies of the wrong type or size, on every route that may carry one.
  if (endpoint.method !== 'GET') {
    for (const type of CONTENT_TYPES) add({ label: `content-type ${type}`, path: path + search, headers: { 'content-type': type }, body: validBody ?? 'a=b' });
    add({ label: 'no content-type', path: path + search, body: validBody ?? '{}' });
    const limit = endpoint.body ? (endpoint.maxBodyBytes ?? JSON_BODY_LIMIT) : config.maxUploadBytes;
    add({ label: 'declared length past the cap', path: path + search, headers: { ...bodyHeaders, 'content-length': String(limit + 1) }, body: '' });
    // Node's HTTP parser refuses this before any route sees it; the server's clientError handler still answers the envelope.
    add({ label: 'declared length not a number', path: path + search, headers: { ...bodyHeaders, 'content-length': '1e3' }, body: '', status: 400 });
    if (endpoint.body || endpoint.method === 'POST' || endpoint.method === 'PUT') {
      // Streamed past the cap, without a Content-Length (JSON routes; raw bodies would be stored up to their cap).
      const streamed = endpoint.body ? limit + 64 * 1024 : 64 * 1024;
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const chunks = [Buffer.from('{"files":['), ...Array.from({ length: Math.ceil(streamed / chunk.byteLength) }, () => chunk)];
      add({ label: `streamed ${Math.round(streamed / 1024)} KiB body`, path: path + search, headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' }, chunks });
    }
  }

  // Credentials that are malformed, unknown or cross-site.
  for (const [label, headers] of BAD_AUTH) add({ label, path: path + search, auth: headers, headers: bodyHeaders, body: validBody });
  // A real session cookie on a request another site made: a write is refused
  // before anything happens (routes that read no credentials aside).
  const crossSite = endpoint.method !== 'GET' && endpoint.auth !== 'anonymous' ? 403 : undefined;
  for (const [label, extra] of [['Origin: null', { origin: 'null' }], ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }]] as const) {
    add({ label: `session cookie with ${label}`, path: path + search, auth: { cookie: `atrium_session=${cookieHolder.web}`, ...extra }, headers: bodyHeaders, body: validBody, status: crossSite });
  }

  // Methods the route lacks.
  const sameRoute = endpoints.filter((e) => e.path === endpoint.path).map((e) => e.method);
  if (sameRoute[0] === endpoint.method) {
    for (const method of ALL_METHODS.filter((m) => !sameRoute.includes(m))) {
      add({ label: `method ${method}`, method, path: path + search, headers: JSON_TYPE, body: method === 'GET' ? undefined : '{}', status: 405 });
    }
    add({ label: 'method PROPFIND', method: 'PROPFIND', path: path + search, status: 405 });
  }
  return cases.map((c) => ({ ...c, label: `${id}: ${c.label}` }));
}

type Offence = { c: Case; answer: RawAnswer; why: string };

/** Answers by status, to see in the log how deep the cases went (not only 401s and 404s). */
const statuses = new Map<number, number>();

function excerpt(value: string | Buffer | undefined, length: number): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : value.toString('latin1');
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…(${text.length})` : text);
}

function judge(c: Case, answer: RawAnswer): string | null {
  if (answer.status === 0) return answer.text;
  if (answer.status >= 500) return `status ${answer.status}`;
  if (c.status && answer.status !== c.status) return `expected ${c.status}`;
  const rawPath = c.path.split('?')[0];
  const ours = rawPath === '/v1' || rawPath.startsWith('/v1/') || rawPath === '/dl' || rawPath.startsWith('/dl/');
  if (ours && c.method !== 'HEAD' && (answer.status < 200 || answer.status >= 300) && !isEnvelope(answer)) return 'not the error envelope';
  return null;
}

async function run(c: Case, caller: Person | null, web: boolean): Promise<Offence | null> {
  let headers: Record<string, string> = { ...c.headers };
  if (c.auth === 'caller') {
    let who = caller;
    if (c.fresh) {
      const example = await c.fresh();
      who = 'as' in example ? (example.as ?? null) : caller;
    }
    if (who) headers.authorization = `Bearer ${web ? who.web : who.token}`;
  } else headers = { ...headers, ...c.auth };
  let answer: RawAnswer;
  try {
    answer = await rawRequest(server.origin, c.method, c.path, { headers, body: c.body, chunks: c.chunks, timeoutMs: 15_000 });
  } catch (error) {
    // An answer the client cannot even parse is an offence like any other.
    answer = { status: 0, headers: {}, text: `no valid HTTP answer: ${(error as Error).message}`, json: undefined };
  }
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const why = judge(c, answer);
  return why ? { c, answer, why } : null;
}

function report(offences: Offence[]): string[] {
  return offences.map(
    ({ c, answer, why }) =>
      `${why}: ${c.label}\n    ${c.method} ${c.path.slice(0, 200)} body=${excerpt(c.body ?? (c.chunks ? `<${c.chunks.length} chunks>` : undefined), 120)}\n    -> ${answer.status} ${excerpt(answer.text, 240)}`,
  );
}

let world: World;
let ids: Map<Endpoint, string>;

beforeAll(async () => {
  ids = await endpointIds();
  world = await new World(server.origin, 'fz').build();
}, 60_000);

/** The cases of every endpoint as `role`, on `space` for space routes. */
async function suite(role: Role, space: SpaceKind) {
  const all: { c: Case; caller: Person | null; web: boolean }[] = [];
  const missing: string[] = [];
  for (const endpoint of endpoints) {
    const id = ids.get(endpoint)!;
    const entry = examples[id];
    if (!entry) {
      missing.push(id);
      continue;
    }
    const where = entry.space ?? space;
    const example = await entry.build(world, role, where);
    const caller = 'as' in example ? (example.as ?? null) : role === 'anonymous' ? null : world.people[role];
    // A call that consumes its caller (deleting the account, revoking the token) gets a new one each time.
    const consumes = entry.fresh && 'as' in example && !endpoint.params && !endpoint.query && !endpoint.body;
    const fresh = consumes ? async () => entry.build(world, role, where) : undefined;
    for (const c of casesFor(id, endpoint, example, fresh, world.people.outsider)) all.push({ c, caller, web: example.web === true });
  }
  return { all, missing };
}

async function fuzz(role: Role, space: SpaceKind) {
  const started = performance.now();
  statuses.clear();
  const { all, missing } = await suite(role, space);
  expect(missing.map((id) => `${id}: no example request in test/http/world.ts`)).toEqual([]);
  const offences = (await inBatches(all, 16, ({ c, caller, web }) => run(c, caller, web))).filter((o): o is Offence => o !== null);
  console.log(`fuzz as ${role}: ${all.length} requests in ${Math.round(performance.now() - started)} ms, ${offences.length} offenders; by status ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  expect(report(offences)).toEqual([]);
}

describe('malformed requests to every endpoint', () => {
  it('never answer 5xx, and answer errors in the envelope, to an anonymous caller (public spaces)', async () => {
    await fuzz('anonymous', 'public');
  }, 120_000);

  it('never answer 5xx, and answer errors in the envelope, to the signed-in owner (members-only spaces)', async () => {
    await fuzz('owner', 'members');
  }, 120_000);

  it('never answer 5xx on /dl, whatever the ticket or method', async () => {
    const owner = world.people.owner;
    const link = await world.must(200, 'GET', `/v1/spaces/${world.spaces.members}/download-link/index.html`, { as: owner, query: { v: '1' } });
    const ticketPath = new URL(link.url).pathname;
    const paths = ['/dl', '/dl/', '/dl/%ff', '/dl/%00', '/dl/%ED%A0%80', '/dl/..', '/dl/a/b', `/dl/${'x'.repeat(5000)}`, `${ticketPath}%00`, `${ticketPath}/..`, `${ticketPath}x`, ticketPath.slice(0, -3)];
    const cases: Case[] = [];
    for (const p of paths) for (const method of ['GET', 'POST', 'PUT', 'DELETE']) cases.push({ label: `dl ${method}`, method, path: p, auth: {}, body: method === 'GET' ? undefined : 'x' });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) cases.push({ label: `dl ${method} of a real ticket`, method, path: ticketPath, auth: {}, body: '{}', status: 405 });
    const offences = (await inBatches(cases, 16, (c) => run(c, null, false))).filter((o): o is Offence => o !== null);
    expect(report(offences)).toEqual([]);
    // The ticket still works, with the file's real length: none of the above
    // used it up, and no commit above could make the file's listed size a lie.
    const answer = await rawRequest(server.origin, 'GET', ticketPath);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('<h1>Hello</h1>\n');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  });
});
