// The OpenAPI document at /openapi.json: clean under Redocly's recommended
// rules (and a few stricter ones), and complete where clients rely on it.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { openApiDocument, openApiPath, SOCKET_ROUTES } from '@/server/http/openapi.ts';
import { endpoints } from '@/lib/schemas/index.ts';

type Operation = {
  operationId: string;
  tags: string[];
  description?: string;
  security: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: { type?: string; format?: string } }> };
  responses: Record<string, { $ref?: string }>;
};
type Document = {
  info: { description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string }>;
    responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
  };
};

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

// The document as a deployed server serves it. (At the default PUBLIC_URL,
// http://localhost:3000, no-server-example.com rightly warns that the server
// is localhost: that is the right server for a local install.)
const deployed = openApiDocument('https://atrium.acme.test') as Document;

describe('the OpenAPI document', () => {
  it('has no error and no warning under Redocly recommended rules and stricter ones', async () => {
    const lintConfig = await createConfig({
      extends: ['recommended'],
      rules: {
        'operation-description': 'error',
        'operation-tag-defined': 'error',
        'tag-description': 'error',
        'info-license-strict': 'error',
        'no-ambiguous-paths': 'error',
        'operation-singular-tag': 'error',
      },
    });
    const problems = await lintFromString({ source: JSON.stringify(deployed), absoluteRef: 'openapi.json', config: lintConfig });
    // A WebSocket upgrade succeeds with 101, which that rule does not know.
    const upgrade = (p: (typeof problems)[number]) => p.ruleId === 'operation-2xx-response' && SOCKET_ROUTES.some((r) => p.location[0]?.pointer === `#/paths/${r.path.replaceAll('/', '~1')}/get/responses`);
    expect(problems.filter((p) => !upgrade(p)).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('names this server and its licence', () => {
    const document = openApiDocument() as Document;
    expect(document.servers).toEqual([{ url: config.publicUrl, description: 'This Atrium server' }]);
    expect(deployed.servers[0].url).toBe('https://atrium.acme.test');
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('describes only what exists today', () => {
    expect(deployed.info.description).toMatch(/spaces/);
    expect(deployed.info.description).toMatch(/workspaces/);
    expect(deployed.info.description).toMatch(/billing/);
    expect(deployed.info.description).not.toMatch(/rooms|apps\b|AI/i);
  });

  it('documents the raw bytes that uploads take, and a body for every other write', () => {
    const rawBodies: string[] = [];
    const noBody: string[] = [];
    for (const { key, op } of operations(deployed)) {
      if (!/^(POST|PUT|PATCH) /.test(key)) continue;
      if (!op.requestBody) noBody.push(key);
      else if (op.requestBody.content['application/octet-stream']) {
        expect(op.requestBody.content['application/octet-stream'].schema).toEqual({ type: 'string', format: 'binary' });
        expect(op.requestBody.required).toBe(true);
        rawBodies.push(key);
      }
    }
    expect(rawBodies.sort()).toEqual(['POST /v1/billing/webhook', 'POST /v1/live-spaces/{id}/images', 'POST /v1/spaces/{id}/uploads', 'PUT /v1/spaces/{id}/blobs/{sha256}']);
    // These take no body at all.
    expect(noBody.sort()).toEqual([
      'POST /v1/apps/{id}/owner-link',
      'POST /v1/apps/{id}/promote',
      'POST /v1/comments/{id}/resolve',
      'POST /v1/comments/{id}/unresolve',
      'POST /v1/live-spaces/{id}/pages/{pageId}/history/{snapshotId}/restore',
      'POST /v1/live-spaces/{id}/ticket',
      'POST /v1/rooms/{id}/pages/{pageId}/history/{snapshotId}/restore',
      'POST /v1/rooms/{id}/ticket',
      'POST /v1/spaces/{id}/db/reset',
      'POST /v1/spaces/{id}/domains/{hostname}/verify',
      'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      'POST /v1/webhooks/{id}/ping',
      'POST /v1/workspaces/{slug}/accept',
      'POST /v1/workspaces/{slug}/billing/keep',
      'POST /v1/workspaces/{slug}/billing/portal',
      'POST /v1/workspaces/{slug}/decline',
    ]);
  });

  it('documents 405 and 500 with the error envelope on every operation', () => {
    for (const { key, op } of operations(deployed)) {
      for (const status of ['405', '500']) {
        const ref = op.responses[status]?.$ref;
        expect(ref, `${key} ${status}`).toMatch(/^#\/components\/responses\//);
        const response = deployed.components.responses[ref!.split('/').pop()!];
        expect(response.content['application/json'].schema.$ref, `${key} ${status}`).toBe('#/components/schemas/Error');
      }
    }
  });

  it('gives every operation a unique operationId and a described tag', () => {
    const all = operations(deployed);
    expect(all).toHaveLength(endpoints.length + SOCKET_ROUTES.length);
    const ids = all.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const described = new Map(deployed.tags.map((t) => [t.name, t.description]));
    for (const { key, op } of all) {
      for (const tag of op.tags) expect(described.get(tag), `${key} ${tag}`).toMatch(/\w{3}/);
    }
  });

  it('says which operations need credentials: bearer token or session cookie, none for anonymous ones', () => {
    expect(deployed.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The deployed server is on https, so its session cookie is __Host-prefixed.
    expect(deployed.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-atrium_session' });
    for (const endpoint of endpoints) {
      const op = deployed.paths[openApiPath(endpoint.path)][endpoint.method.toLowerCase()];
      if (endpoint.auth === 'anonymous') expect(op.security, endpoint.path).toEqual([]);
      else if (endpoint.auth === 'optional') expect(op.security, endpoint.path).toContainEqual({});
      else {
        expect(op.security, endpoint.path).toContainEqual({ bearerAuth: [] });
        expect(op.security, endpoint.path).not.toContainEqual({});
      }
    }
  });
});
