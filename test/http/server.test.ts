// The front server as an attacker meets it: raw paths that a browser would
// normalise, odd headers, bodies of the wrong type or size. Every answer under
// /v1 and /dl is the JSON envelope, and none is a 5xx.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '@/lib/config.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { rawRequest, type RawAnswer, type RawOptions } from './raw.ts';

const server = useFrontServer();

type Raw = RawAnswer;

/** Sends the path byte for byte: no client-side normalisation of dot segments or escapes. */
const raw = (method: string, path: string, options: RawOptions = {}) => rawRequest(server.origin, method, path, options);

function expectEnvelope(answer: Raw, status: number, code?: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual({ error: { code: code ?? expect.any(String), message: expect.any(String) } });
}

afterEach(() => {
  vi.restoreAllMocks();
  config.logRequests = false;
});

describe('the front server', () => {
  it('logs one JSON line per request with id, method, route, status, duration and caller, and no secret', async () => {
    const { token, user } = await signIn('logged');
    config.logRequests = true;
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    await raw('GET', '/v1/me?secret=x', { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-1' } });
    await raw('GET', '/dl/atrt_nothing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entries = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ requestId: 'req-1', method: 'GET', route: '/v1/me', status: 200, userId: user.id });
    expect(typeof entries[0].ms).toBe('number');
    expect(entries[1]).toMatchObject({ route: '/dl/{ticket}', status: 404 });
    expect(lines.join('')).not.toContain(token);
    expect(lines.join('')).not.toContain('secret=x');
  });

  it('answers /v1 routes, with a request id and a HEAD without a body', async () => {
    const { token } = await signIn('front-door');
    const me = await raw('GET', '/v1/me', { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-1' } });
    expect(me.status).toBe(200);
    expect(me.json.user.handle).toBe('front-door');
    expect(me.headers['x-request-id']).toBe('trace-1');
    expect(me.headers['x-content-type-options']).toBe('nosniff');
    const head = await raw('HEAD', '/v1/me', { headers: { authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('refuses dot segments before routing, also when encoded, so DELETE /v1/me/blocks/%2e%2e deletes nothing', async () => {
    const { token } = await signIn('dot-victim');
    const auth = { authorization: `Bearer ${token}` };
    for (const path of ['/v1/me/blocks/%2e%2e', '/v1/me/blocks/..', '/v1/me/blocks/%2E%2e', '/v1/me/blocks/.', '/v1/spaces/x/files/a/../b', '/v1/spaces/x/files/%2e%2e/b']) {
      expectEnvelope(await raw('DELETE', path, { headers: auth }), 400, 'bad_request');
    }
    expect((await raw('GET', '/v1/me', { headers: auth })).status).toBe(200);
  });

  it('answers malformed percent-escapes with 400, not 500, on /v1 and /dl, and a page on /s', async () => {
    expectEnvelope(await raw('GET', '/v1/spaces/%ff'), 400, 'bad_request');
    expectEnvelope(await raw('GET', '/v1/spaces/%E0%A4%A'), 400, 'bad_request');
    expectEnvelope(await raw('GET', '/dl/%ff'), 404, 'not_found');
    const site = await raw('GET', '/s/%ff/');
    expect(site.status).toBe(404);
  });

  it('keeps every answer under /v1 and /dl in the envelope: unknown paths, empty segments, wrong methods', async () => {
    expectEnvelope(await raw('GET', '/v1'), 404, 'not_found');
    expectEnvelope(await raw('GET', '/v1/spaces/sp_x/blobs/x/y'), 404, 'not_found');
    expectEnvelope(await raw('GET', '/dl/'), 404, 'not_found');
    expectEnvelope(await raw('GET', '/dl'), 404, 'not_found');
    expectEnvelope(await raw('GET', '/v1/spaces/sp_x/files/a//b'), 400, 'bad_request');
    expectEnvelope(await raw('GET', '/v1/me/'), 400, 'bad_request');
    const put = await raw('PUT', '/v1/me');
    expectEnvelope(put, 405, 'method_not_allowed');
    expect(put.headers.allow).toBe('GET, DELETE');
    // Routes that take large or raw bodies answer wrong methods the same way.
    for (const [method, path] of [['GET', '/v1/spaces/sp_x/push/plan'], ['POST', '/v1/spaces/sp_x/blobs/abc'], ['PATCH', '/v1/spaces/sp_x/uploads'], ['DELETE', '/v1/spaces/sp_x/versions']]) {
      expectEnvelope(await raw(method, path), 405, 'method_not_allowed');
    }
    expect((await raw('OPTIONS', '/v1/me')).headers.allow).toBe('GET, DELETE');
  });

  it('reads JSON bodies only as application/json, so a cross-site form never reaches a JSON route', async () => {
    const { token } = await signIn('typed-bodies');
    const auth = { authorization: `Bearer ${token}` };
    const body = JSON.stringify({ workspace: 'typed-bodies', name: 'Typed' });
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
      expectEnvelope(await raw('POST', '/v1/spaces', { headers: { ...auth, 'content-type': type }, body }), 415, 'unsupported_media_type');
    }
    expectEnvelope(await raw('POST', '/v1/spaces', { headers: auth, body }), 415, 'unsupported_media_type');
    const ok = await raw('POST', '/v1/spaces', { headers: { ...auth, 'content-type': 'application/json; charset=utf-8' }, body });
    expect(ok.status).toBe(200);
    expectEnvelope(await raw('POST', '/v1/spaces', { headers: { ...auth, 'content-type': 'application/json' }, body: '{"workspace":' }), 400, 'bad_request');
    expectEnvelope(await raw('POST', '/v1/spaces', { headers: { ...auth, 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0x7d]) }), 400, 'bad_request');
  });

  it('caps bodies: a declared length past the cap is refused unread, a streamed one when it passes the cap', async () => {
    const { token } = await signIn('big-bodies');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const declared = await raw('POST', '/v1/spaces', { headers: { ...auth, 'content-length': String(11 * 1024 * 1024) }, body: '' });
    expectEnvelope(declared, 413, 'too_large');
    const streamed = await raw('POST', '/v1/spaces', { headers: { ...auth, 'transfer-encoding': 'chunked' }, chunks: Array.from({ length: 12 }, () => Buffer.alloc(100 * 1024, 0x20)) });
    expectEnvelope(streamed, 413, 'too_large');
    // Manifests may be larger, but only a caller who may push has them read.
    const plan = await raw('POST', '/v1/spaces/sp_nothing/push/plan', { headers: { ...auth, 'transfer-encoding': 'chunked' }, chunks: [Buffer.from('{"files":['), Buffer.alloc(2 * 1024 * 1024, 0x20)] });
    expectEnvelope(plan, 404, 'not_found');
    const huge = await raw('POST', '/v1/spaces/sp_nothing/versions', { headers: { ...auth, 'content-length': String(400 * 1024 * 1024) }, body: '' });
    expectEnvelope(huge, 413, 'too_large');
  });

  it('treats a session cookie with Origin: null or a non-URL origin as cross-site (403)', async () => {
    const { token } = await signIn('cookie-origin', 'web');
    const headers = { cookie: `atrium_session=${token}`, 'content-type': 'application/json', host: new URL(server.origin).host };
    for (const origin of ['null', 'not a url', 'http://evil.example']) {
      expectEnvelope(await raw('PATCH', '/v1/me/preferences', { headers: { ...headers, origin }, body: '{"developerMode":true}' }), 403, 'forbidden');
    }
    const same = await raw('PATCH', '/v1/me/preferences', { headers: { ...headers, origin: server.origin }, body: '{"developerMode":true}' });
    expect(same.status).toBe(200);
  });
});

describe('a client that gives up mid-body', () => {
  it('is logged once, at info, as an abort: no "unhandled error" and no stack', async () => {
    const { token, user } = await signIn('aborter');
    const space = await (await fetch(`${server.origin}/v1/spaces`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ workspace: user.handle, name: 'Aborted' }) })).json();
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const { connect } = await import('node:net');
    const url = new URL(server.origin);
    const cutShort = (method: string, path: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(`${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${token}\r\ncontent-length: 1000000\r\n\r\n`);
          socket.write(Buffer.alloc(64 * 1024, 1), () => setTimeout(() => (socket.destroy(), resolve()), 100));
        });
      });
    await cutShort('PUT', `/v1/spaces/${space.id}/blobs/${'a'.repeat(64)}`);
    await cutShort('POST', `/v1/spaces/${space.id}/uploads?name=big.bin`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    vi.restoreAllMocks();
    const entries = lines.flatMap((line) => line.split('\n')).filter(Boolean).map((line) => JSON.parse(line));
    expect(entries.filter((e) => e.level !== 'info')).toEqual([]);
    expect(entries.filter((e) => e.msg === 'request aborted by the client')).toHaveLength(2);
  });
});
