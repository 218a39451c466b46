import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { compileRoutes } from '@/lib/http/router.ts';
import { endpoint } from '@/lib/schemas/endpoint.ts';
import { proxy } from '@/proxy.ts';

const e = (method: 'GET' | 'POST' | 'DELETE', path: string) =>
  endpoint({ method, path, summary: '', tag: '', auth: 'user', response: null });

describe('compileRoutes', () => {
  const allowed = compileRoutes([
    e('DELETE', '/v1/tokens/current'),
    e('GET', '/v1/tokens/{id}'),
    e('DELETE', '/v1/tokens/{id}'),
    e('GET', '/v1/spaces/{id}/files/{path...}'),
  ]);

  it('prefers a static segment over a parameter, as the file router does', () => {
    expect(allowed('/v1/tokens/current')).toEqual(new Set(['DELETE']));
    expect(allowed('/v1/tokens/tok_1')).toEqual(new Set(['GET', 'DELETE']));
  });

  it('matches a rest parameter over one or more segments, and nothing else', () => {
    expect(allowed('/v1/spaces/sp_1/files/a/b/c.html')).toEqual(new Set(['GET']));
    expect(allowed('/v1/spaces/sp_1/files')).toBeNull();
    expect(allowed('/v1/unknown')).toBeNull();
  });
});

describe('proxy', () => {
  const request = (method: string, path: string) => new NextRequest(`http://localhost:3000${path}`, { method });

  it('answers an unknown /v1 path with the not_found envelope', async () => {
    const response = proxy(request('GET', '/v1/no/such/thing'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('/v1/no/such/thing') } });
  });

  it('answers a method the route lacks with 405, the envelope and Allow', async () => {
    const response = proxy(request('PUT', '/v1/me'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, DELETE');
    expect((await response.json()).error.code).toBe('method_not_allowed');
  });

  it('lets known routes through, HEAD included', () => {
    expect(proxy(request('GET', '/v1/me')).headers.get('x-middleware-next')).toBe('1');
    expect(proxy(request('HEAD', '/v1/me')).headers.get('x-middleware-next')).toBe('1');
  });
});
