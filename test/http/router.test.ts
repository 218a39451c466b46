import { describe, expect, it } from 'vitest';
import { compileRoutes } from '@/server/http/router.ts';
import { endpoint } from '@/lib/schemas/endpoint.ts';

const e = (method: 'GET' | 'POST' | 'DELETE', path: string) =>
  endpoint({ method, path, summary: '', tag: '', auth: 'user', response: null });

const parts = (path: string) => path.split('/').filter(Boolean);

describe('compileRoutes', () => {
  const match = compileRoutes([
    e('DELETE', '/v1/tokens/current'),
    e('GET', '/v1/tokens/{id}'),
    e('DELETE', '/v1/tokens/{id}'),
    e('GET', '/v1/spaces/{id}/files/{path...}'),
  ]);
  const methods = (path: string) => {
    const found = match(parts(path));
    return found ? new Set(found.endpoints.keys()) : null;
  };

  it('prefers a static segment over a parameter, as the file router does', () => {
    expect(methods('/v1/tokens/current')).toEqual(new Set(['DELETE']));
    expect(methods('/v1/tokens/tok_1')).toEqual(new Set(['GET', 'DELETE']));
    expect(match(parts('/v1/tokens/tok_1'))?.params).toEqual({ id: 'tok_1' });
  });

  it('matches a rest parameter over one or more segments, and nothing else', () => {
    expect(match(parts('/v1/spaces/sp_1/files/a/b/c.html'))).toMatchObject({ path: '/v1/spaces/{id}/files/{path...}', params: { id: 'sp_1', path: ['a', 'b', 'c.html'] } });
    expect(methods('/v1/spaces/sp_1/files')).toBeNull();
    expect(methods('/v1/unknown')).toBeNull();
  });
});
