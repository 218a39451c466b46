// Hostile input must be refused with 400 naming the field, never reach
// PostgreSQL (which rejects NUL and unpaired surrogates with a 500) and never
// be stored where a later read would break on it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { POST as viewsRoute } from '@/app/v1/spaces/[id]/views/route.ts';
import { POST as createSpaceRoute, GET as listSpacesRoute } from '@/app/v1/spaces/route.ts';
import { POST as devLoginRoute } from '@/app/v1/auth/dev-login/route.ts';
import { POST as createWorkspaceRoute } from '@/app/v1/workspaces/route.ts';
import { GET as auditRoute } from '@/app/v1/workspaces/[slug]/audit/route.ts';
import { GET as visitorsRoute } from '@/app/v1/spaces/[id]/visitors/route.ts';
import { GET as versionRoute } from '@/app/v1/spaces/[id]/versions/[n]/route.ts';
import { GET as fileRoute } from '@/app/v1/spaces/[id]/files/[...path]/route.ts';
import { GET as downloadRoute } from '@/app/v1/spaces/[id]/download/[...path]/route.ts';
import { POST as commitRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { POST as createInviteRoute } from '@/app/v1/workspaces/[slug]/invites/route.ts';
import { endpoints } from '@/lib/schemas/index.ts';
import type { Endpoint } from '@/lib/schemas/endpoint.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';

const NUL = '\u0000';
const LONE = '\ud800';
const CONTROL_MESSAGE = /control characters/;
const SURROGATE_MESSAGE = /unpaired surrogate/;

type Leaf = { where: string; schema: z.ZodType };

/**
 * Every string leaf of a request schema. An unknown kind of schema fails the
 * walk, so a new construct has to be taught here rather than slip past.
 */
function stringLeaves(schema: z.ZodType, where: string, out: Leaf[] = []): Leaf[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'string':
      out.push({ where, schema });
      break;
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) stringLeaves(value, `${where}.${key}`, out);
      break;
    case 'array':
      stringLeaves(def.element as z.ZodType, `${where}[]`, out);
      break;
    case 'record':
      stringLeaves(def.keyType as z.ZodType, `${where}{key}`, out);
      stringLeaves(def.valueType as z.ZodType, `${where}{value}`, out);
      break;
    case 'union':
      (def.options as z.ZodType[]).forEach((option, i) => stringLeaves(option, `${where}|${i}`, out));
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      stringLeaves(def.innerType as z.ZodType, where, out);
      break;
    case 'pipe':
      stringLeaves(def.in as z.ZodType, where, out);
      stringLeaves(def.out as z.ZodType, where, out);
      break;
    // Closed sets and non-text values: nothing free-form to check.
    case 'transform':
    case 'enum':
    case 'literal':
    case 'number':
    case 'boolean':
    case 'null':
      break;
    // Free-form JSON (a database query's object parameter) is bound as JSON
    // text, where NUL and lone surrogates are escaped; it never reaches a Postgres text column.
    case 'unknown':
      break;
    default:
      throw new Error(`${where}: the walk does not know "${def.type}" schemas; teach it, and make sure their strings use text()`);
  }
  return out;
}

function requestLeaves(endpoint: Endpoint): Leaf[] {
  const name = `${endpoint.method} ${endpoint.path}`;
  return (['params', 'query', 'body'] as const).flatMap((part) => (endpoint[part] ? stringLeaves(endpoint[part], `${name} ${part}`) : []));
}

describe('every text input of the route table', () => {
  const leaves = endpoints.flatMap(requestLeaves);

  it('is found by the walk (params, query and body strings of every area)', () => {
    expect(leaves.length).toBeGreaterThan(40);
    for (const where of ['{path...} params.path[]', 'POST /v1/spaces/{id}/versions body.message', 'body.files[].contentType', 'query.name', 'body.email']) {
      expect(leaves.some((l) => l.where.includes(where)), where).toBe(true);
    }
  });

  it('refuses NUL and other control characters, and unpaired surrogates, with the shared message', () => {
    for (const { where, schema } of leaves) {
      for (const [value, message] of [
        [NUL, CONTROL_MESSAGE],
        [`a${NUL}b`, CONTROL_MESSAGE],
        ['\u007f', CONTROL_MESSAGE],
        ['\u0085', CONTROL_MESSAGE],
        ['\u001b[31m', CONTROL_MESSAGE],
        [LONE, SURROGATE_MESSAGE],
        [`x\udc00`, SURROGATE_MESSAGE],
      ] as const) {
        const result = schema.safeParse(value);
        expect(result.success, `${where} took ${JSON.stringify(value)}`).toBe(false);
        expect(result.error!.issues.map((i) => i.message).join(' | '), where).toMatch(message);
      }
    }
  });
});

// --- the real route handlers ---

const APP = path.resolve(import.meta.dirname, '../..');

/** /v1/spaces/{id}/files/{path...} -> app/v1/spaces/[id]/files/[...path]/route.ts */
function routeFile(specPath: string): string {
  const dir = specPath.replace(/\{(\w+)\.\.\.\}/g, '[...$1]').replace(/\{(\w+)\}/g, '[$1]');
  return path.join(APP, 'app', dir, 'route.ts');
}

type Handler = Parameters<typeof call>[0];

async function handlerOf(endpoint: Endpoint): Promise<Handler> {
  const module = await import(routeFile(endpoint.path));
  return module[endpoint.method];
}

/** Params that pass validation, so that only the one under test fails. */
function goodParams(endpoint: Endpoint): Record<string, string | string[]> {
  const names = [...endpoint.path.matchAll(/\{(\w+)(\.\.\.)?\}/g)];
  const sample: Record<string, string> = { sha256: 'a'.repeat(64), n: '1', userCode: 'BCDF-GHJK', slug: 'someone', handle: 'someone' };
  return Object.fromEntries(names.map(([, name, rest]) => [name, rest ? ['dir', 'a.txt'] : (sample[name] ?? 'x')]));
}

describe('hostile path params and query values', () => {
  it('answer 400 naming the param on every endpoint, for NUL and for an unpaired surrogate', async () => {
    const cli = await signIn('inputs-params');
    const web = await signIn('inputs-params-web', 'web');
    let probes = 0;
    for (const endpoint of endpoints) {
      const handler = await handlerOf(endpoint);
      const token = endpoint.auth === 'web' ? web.token : cli.token;
      for (const name of Object.keys(goodParams(endpoint))) {
        for (const bad of [NUL, LONE]) {
          const params = goodParams(endpoint);
          params[name] = Array.isArray(params[name]) ? ['dir', bad] : bad;
          const { status, json } = await call(handler, endpoint.method, endpoint.path, { token, params });
          const label = `${endpoint.method} ${endpoint.path} ${name}=${JSON.stringify(bad)}`;
          expect(status, label).toBe(400);
          expect(json.error.code, label).toBe('bad_request');
          expect(json.error.message, label).toMatch(new RegExp(`^params\\.${name}(\\.1)?: `));
          probes++;
        }
      }
    }
    expect(probes).toBeGreaterThan(40);
  });

  it('answer 400 naming the query key on every endpoint that takes a query', async () => {
    const cli = await signIn('inputs-query');
    let probes = 0;
    for (const endpoint of endpoints.filter((e) => e.query)) {
      const handler = await handlerOf(endpoint);
      const shape = endpoint.query!.shape as Record<string, z.ZodType>;
      for (const key of Object.keys(shape)) {
        // The other keys a query needs (GET /v1/search's q) are given, so that the refusal is this key's.
        const needed = Object.keys(shape).filter((other) => other !== key && !shape[other].safeParse(undefined).success);
        const rest = needed.map((other) => `&${other}=x`).join('');
        // A query string cannot carry an unpaired surrogate: URL decoding turns one into U+FFFD.
        for (const bad of [NUL, '\u001b', '\u0085']) {
          const url = `${endpoint.path}?${key}=${encodeURIComponent(bad)}${rest}`;
          const { status, json } = await call(handler, endpoint.method, url, { token: cli.token, params: goodParams(endpoint) });
          expect(status, url).toBe(400);
          expect(json.error.message, url).toMatch(new RegExp(`^query\\.${key}: `));
          probes++;
        }
      }
    }
    expect(probes).toBeGreaterThanOrEqual(7 * 3);
  });

  it('a NUL in a real space id or workspace filter is 400, not a database error', async () => {
    const { token } = await signIn('inputs-list');
    const list = await call(listSpacesRoute, 'GET', `/v1/spaces?workspace=inputs-list%00`, { token });
    expect(list.status).toBe(400);
    expect(list.json.error.message).toMatch(/^query\.workspace: .*control characters/);
  });
});

describe('hostile bodies', () => {
  it('name the field for control characters and unpaired surrogates in names, handles and messages', async () => {
    const { token } = await signIn('inputs-body');
    const cases: [Handler, string, unknown, string][] = [
      [createWorkspaceRoute, '/v1/workspaces', { slug: 'inputs-body-ws', name: `Team${NUL}` }, 'body.name'],
      [createWorkspaceRoute, '/v1/workspaces', { slug: 'inputs-body-ws', name: `Team${LONE}` }, 'body.name'],
      [createWorkspaceRoute, '/v1/workspaces', { slug: 'inputs-body-ws', name: 'Two\nlines' }, 'body.name'],
      [createSpaceRoute, '/v1/spaces', { workspace: `inputs-body${NUL}`, name: 'Site' }, 'body.workspace'],
      [createSpaceRoute, '/v1/spaces', { workspace: 'inputs-body', name: `Site\u009b` }, 'body.name'],
      [devLoginRoute, '/v1/auth/dev-login', { handle: 'inputs-body-2', name: `Ann${NUL}` }, 'body.name'],
    ];
    for (const [handler, url, body, field] of cases) {
      const { status, json } = await call(handler, 'POST', url, { token, body });
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error.code).toBe('bad_request');
      expect(json.error.message, JSON.stringify(body)).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
  });

  it('lets a commit message keep tabs and line breaks, but not other control characters', async () => {
    const { token } = await signIn('inputs-message');
    const space = await makeSpace(token, 'inputs-message');
    const { commit } = await push(token, space.id, { 'a.txt': 'a' }, 'Title\r\n\n\tdetails');
    expect(commit.version.message).toBe('Title\r\n\n\tdetails');
    for (const message of [`bad${NUL}`, 'bell\u0007', `half ${LONE}`]) {
      const bad = await call(commitRoute, 'POST', '', { token, params: { id: space.id }, body: { files: [], message } });
      expect(bad.status, JSON.stringify(message)).toBe(400);
      expect(bad.json.error.message).toMatch(/^body\.message: /);
    }
  });

  it('answer 400 naming the field for wrong types, missing fields and numbers out of range', async () => {
    const { token } = await signIn('inputs-types');
    const space = await makeSpace(token, 'inputs-types');
    const raw = (handler: Handler, url: string, text: string, params: Record<string, string> = {}) =>
      call(handler, 'POST', url, { token, params, rawBody: text, headers: { 'content-type': 'application/json' } });
    const cases: [Promise<Awaited<ReturnType<typeof call>>>, RegExp][] = [
      [raw(viewsRoute, '', '{"path":"/","version":1e309}', { id: space.id }), /^body\.version: /],
      [raw(viewsRoute, '', '{"path":"/","version":3000000000}', { id: space.id }), /^body\.version: /],
      [raw(viewsRoute, '', '{"path":"/","version":1.5}', { id: space.id }), /^body\.version: /],
      [raw(viewsRoute, '', '{"path":["/"]}', { id: space.id }), /^body\.path: /],
      [raw(viewsRoute, '', '{}', { id: space.id }), /^body\.path: /],
      [raw(viewsRoute, '', 'null', { id: space.id }), /^body: /],
      [raw(viewsRoute, '', '[1,2]', { id: space.id }), /^body: /],
      [raw(createSpaceRoute, '/v1/spaces', '{"workspace":{"$ne":""},"name":"x"}'), /^body\.workspace: /],
      [raw(createSpaceRoute, '/v1/spaces', '{"workspace":"inputs-types","name":12}'), /^body\.name: /],
      [raw(createInviteRoute, '', '{"maxUses":1e400}', { slug: 'inputs-types' }), /^body\.maxUses: /],
      [raw(createInviteRoute, '', '{"expiresInDays":"7"}', { slug: 'inputs-types' }), /^body\.expiresInDays: /],
    ];
    for (const [pending, message] of cases) {
      const { status, json } = await pending;
      expect(status, String(message)).toBe(400);
      expect(json.error.code).toBe('bad_request');
      expect(json.error.message).toMatch(message);
    }
  });

  it('refuses numbers in query strings and path params that are not small whole numbers', async () => {
    const { token } = await signIn('inputs-numbers');
    const space = await makeSpace(token, 'inputs-numbers');
    await push(token, space.id, { 'a.txt': 'a' });
    const get = (handler: Handler, url: string, params: Record<string, string | string[]>) => call(handler, 'GET', url, { token, params });
    const files = { id: space.id, path: ['a.txt'] };
    const cases: [Handler, string, Record<string, string | string[]>, RegExp][] = [
      [auditRoute, '?limit=-1', { slug: 'inputs-numbers' }, /^query\.limit: /],
      [auditRoute, '?limit=abc', { slug: 'inputs-numbers' }, /^query\.limit: /],
      [auditRoute, '?limit=', { slug: 'inputs-numbers' }, /^query\.limit: /],
      [auditRoute, '?limit=1e2', { slug: 'inputs-numbers' }, /^query\.limit: /],
      [auditRoute, '?before=99999999999999999999', { slug: 'inputs-numbers' }, /^query\.before: /],
      [auditRoute, '?before=0x10', { slug: 'inputs-numbers' }, /^query\.before: /],
      [auditRoute, '?before=Infinity', { slug: 'inputs-numbers' }, /^query\.before: /],
      [visitorsRoute, '?days=abc', { id: space.id }, /^query\.days: /],
      [visitorsRoute, '?days=0', { id: space.id }, /^query\.days: /],
      [fileRoute, '?v=99999999999999999999', files, /^query\.v: /],
      [fileRoute, '?v=0', files, /^query\.v: /],
      [fileRoute, '?v=-1', files, /^query\.v: /],
      [downloadRoute, '?v=2147483648', files, /^query\.v: /],
      [versionRoute, '', { id: space.id, n: '99999999999999999999' }, /^params\.n: must be a version number or "latest"/],
      [versionRoute, '', { id: space.id, n: '2147483648' }, /^params\.n: /],
      [versionRoute, '', { id: space.id, n: '1e3' }, /^params\.n: /],
      [versionRoute, '', { id: space.id, n: ['1', '2'] }, /^params\.n: /],
    ];
    for (const [handler, url, params, message] of cases) {
      const { status, json } = await get(handler, url, params);
      expect(status, url || JSON.stringify(params)).toBe(400);
      expect(json.error.message, url || JSON.stringify(params)).toMatch(message);
    }
    // The largest allowed numbers are still answered, as "not found" rather than a database error.
    expect((await get(versionRoute, '', { id: space.id, n: '2147483647' })).status).toBe(404);
    expect((await get(fileRoute, '?v=2147483647', files)).status).toBe(404);
    expect((await get(auditRoute, `?before=${Number.MAX_SAFE_INTEGER}&limit=200`, { slug: 'inputs-numbers' })).status).toBe(200);
    expect((await get(versionRoute, '', { id: space.id, n: 'latest' })).status).toBe(200);
  });
});
