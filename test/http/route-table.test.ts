// The route files, the route table and the OpenAPI document must describe the
// same API: a route without documentation, or documentation without a route,
// fails here.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument, openApiPath, SOCKET_ROUTES } from '@/server/http/openapi.ts';
import { endpoints } from '@/lib/schemas/index.ts';

const APP_V1 = path.resolve(import.meta.dirname, '../../app/v1');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

async function routeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name === 'route.ts').map((e) => path.join(e.parentPath, e.name));
}

/** app/v1/spaces/[id]/files/[...path]/route.ts -> /v1/spaces/{id}/files/{path...} */
function specPath(file: string): string {
  const rel = path.relative(path.dirname(APP_V1), path.dirname(file)).split(path.sep);
  return `/${rel.map((s) => s.replace(/^\[\.\.\.(\w+)\]$/, '{$1...}').replace(/^\[(\w+)\]$/, '{$1}')).join('/')}`;
}

describe('route table', () => {
  it('has exactly one endpoint for every exported handler of every route file', async () => {
    const implemented: string[] = [];
    for (const file of await routeFiles(APP_V1)) {
      const module = await import(file);
      for (const method of METHODS) if (module[method]) implemented.push(`${method} ${specPath(file)}`);
    }
    const declared = endpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect(implemented.sort()).toEqual(declared.sort());
  });

  it('is what the OpenAPI document describes, with the two socket upgrades', () => {
    const document = openApiDocument() as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1');
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const declared = [...endpoints.map((e) => `${e.method} ${openApiPath(e.path)}`), ...SOCKET_ROUTES.map((r) => `GET ${r.path}`)];
    expect(documented.sort()).toEqual(declared.sort());
  });
});
