// The wrapper's own duties: request ids and the envelope for unexpected
// failures (the front server writes the log line: test/http/server.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { config } from '@/lib/config.ts';
import { route } from '@/server/http/route.ts';
import { endpoint } from '@/lib/schemas/endpoint.ts';
import { call, signIn } from '../helpers.ts';

function captureStdout() {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('route wrapper', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    config.logRequests = false;
  });

  it('sets x-request-id, keeping a sane one sent by the client', async () => {
    const { token } = await signIn('alice');
    const fresh = await call(meRoute, 'GET', '/v1/me', { token });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await call(meRoute, 'GET', '/v1/me', { token, headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const replaced = await call(meRoute, 'GET', '/v1/me', { token, headers: { 'x-request-id': 'bad id\n' } });
    expect(replaced.headers.get('x-request-id')).not.toContain('bad');
  });

  it('answers an unexpected failure with 500 and the envelope, and logs the stack', async () => {
    const failing = route(endpoint({ method: 'GET', path: '/v1/test', summary: '', tag: '', auth: 'anonymous', response: null }), async () => {
      throw new Error('boom');
    });
    const lines = captureStdout();
    const { status, json } = await call(failing, 'GET', '/v1/test');
    expect(status).toBe(500);
    expect(json.error.code).toBe('internal_error');
    expect(json.error.message).not.toContain('boom');
    expect(lines.join('')).toContain('boom');
  });

  it('answers 503 with Retry-After when no database connection could be had in time', async () => {
    const busy = route(endpoint({ method: 'GET', path: '/v1/test', summary: '', tag: '', auth: 'anonymous', response: null }), async () => {
      throw new Error('timeout exceeded when trying to connect');
    });
    captureStdout();
    const { status, json, headers } = await call(busy, 'GET', '/v1/test');
    expect(status).toBe(503);
    expect(json.error.code).toBe('unavailable');
    expect(headers.get('retry-after')).toBe('5');
  });

  it('refuses a response that breaks its documented schema outside production', async () => {
    const lying = route(
      endpoint({ method: 'GET', path: '/v1/test', summary: '', tag: '', auth: 'anonymous', response: z.object({ n: z.number() }) }),
      async () => ({ n: 'one' }) as never,
    );
    captureStdout();
    expect((await call(lying, 'GET', '/v1/test')).status).toBe(500);
  });

  it('refuses a cookie-authenticated state change sent from another site', async () => {
    const { token } = await signIn('carol', 'web');
    const changing = route(endpoint({ method: 'POST', path: '/v1/test', summary: '', tag: '', auth: 'user', response: null }), async () => {});
    const cookie = `atrium_session=${token}`;
    expect((await call(changing, 'POST', '/v1/test', { cookie, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await call(changing, 'POST', '/v1/test', { cookie, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await call(changing, 'POST', '/v1/test', { cookie, headers: { origin: 'http://localhost:3000' } })).status).toBe(204);
    // A Bearer token is not sent by browsers on their own, so no origin check applies.
    expect((await call(changing, 'POST', '/v1/test', { token, headers: { origin: 'https://evil.example' } })).status).toBe(204);
  });

  it('refuses API tokens on web-session-only routes with 403', async () => {
    const webOnly = route(endpoint({ method: 'POST', path: '/v1/test', summary: '', tag: '', auth: 'web', response: null }), async () => {});
    const api = await signIn('dave', 'cli');
    const web = await signIn('dave', 'web');
    expect((await call(webOnly, 'POST', '/v1/test', { token: api.token })).status).toBe(403);
    expect((await call(webOnly, 'POST', '/v1/test', { token: web.token })).status).toBe(204);
    expect((await call(webOnly, 'POST', '/v1/test')).status).toBe(401);
  });
});
