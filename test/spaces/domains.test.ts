// Custom domains through the real front server: added, verified by fetching
// the name (pointed at this test's server, as DNS would), served as the space
// with its access rules, refused to Caddy's ask while not active, and removed
// at once.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainCheck } from '@/lib/spaces/domains.ts';
import { signIn } from '../helpers.ts';
import { localhostEverywhere, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();
const saved = { ...domainCheck };
beforeAll(() => Object.assign(domainCheck, { port: Number(new URL(server.origin).port), lookup: localhostEverywhere }));
afterAll(() => Object.assign(domainCheck, saved));

const api = (token: string, method: string, path: string, body?: unknown) =>
  rawRequest(server.origin, method, path, { headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
/** A request to the test's server for `hostname`, as a browser whose DNS points the name here would send it. */
const at = (hostname: string, path: string, headers: Record<string, string> = {}) => rawRequest(server.origin, 'GET', path, { headers: { host: hostname, ...headers } });

describe('custom domains', () => {
  it('are verified through the name itself, then serve the space; removal stops it at once', async () => {
    const owner = await signIn('domain-owner', 'web');
    const space = await makeSpace(owner.token, 'domain-owner');
    await push(owner.token, space.id, { 'index.html': '<h1>Docs at home</h1>', _headers: '/*\n  X-Served-By: the site\n' });

    const added = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'Docs.Example.com.' });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ hostname: 'docs.example.com', status: 'pending', verification: { url: expect.stringMatching(/^http:\/\/docs\.example\.com\/\.well-known\/atrium-verify\/[0-9a-f]{32}$/) } });
    const { token } = added.json.verification;
    // Pending: the name answers only its verification address, never the site or the app.
    expect((await at('docs.example.com', '/')).status).toBe(404);
    expect((await at('docs.example.com', `/.well-known/atrium-verify/${token}`)).text).toBe(token);
    expect((await at('docs.example.com', '/.well-known/atrium-verify/0000')).status).toBe(404);
    expect((await rawRequest(server.origin, 'GET', '/v1/domains/check?domain=docs.example.com')).status).toBe(404);

    // A name that does not reach this server cannot be verified, and says why.
    const elsewhere = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'www.elsewhere.example' });
    Object.assign(domainCheck, { port: 9 });
    const refused = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/www.elsewhere.example/verify`);
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/^www\.elsewhere\.example does not reach this Atrium yet \(http:\/\/www\.elsewhere\.example\/\.well-known\/atrium-verify\/[0-9a-f]+: .*ECONNREFUSED.*\)\. Point its DNS at Atrium/);
    // A name that reaches some other server: its answer is never repeated to the caller.
    const stranger = createServer((_request, response) => response.end('internal secret'));
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    Object.assign(domainCheck, { port: (stranger.address() as AddressInfo).port });
    const someoneElse = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/www.elsewhere.example/verify`);
    stranger.close();
    expect(someoneElse.status).toBe(409);
    expect(someoneElse.json.error.message).toContain('an answer that is not the token');
    expect(someoneElse.json.error.message).not.toContain('internal secret');
    Object.assign(domainCheck, { port: Number(new URL(server.origin).port) });
    expect(elsewhere.json.status).toBe('pending');

    const verified = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/docs.example.com/verify`);
    expect(verified.json).toMatchObject({ hostname: 'docs.example.com', status: 'active', verifiedAt: expect.any(Number) });
    const home = await at('docs.example.com', '/');
    expect([home.status, home.text, home.headers['x-served-by']]).toEqual([200, '<h1>Docs at home</h1>', 'the site']);
    // Never the app's pages or API on it.
    expect((await at('docs.example.com', '/v1/me', { authorization: `Bearer ${owner.token}` })).status).toBe(404);
    expect((await rawRequest(server.origin, 'GET', '/v1/domains/check?domain=docs.example.com')).json).toEqual({ domain: 'docs.example.com', active: true });

    // One space per name on the instance; names of Atrium's own are refused.
    const other = await makeSpace(owner.token, 'domain-owner', { name: 'Other' });
    expect((await api(owner.token, 'POST', `/v1/spaces/${other.id}/domains`, { hostname: 'docs.example.com' })).status).toBe(409);
    for (const bad of ['localhost', 'sp-abc.localhost', '10.0.0.1', 'has space.example.com', 'example']) {
      expect((await api(owner.token, 'POST', `/v1/spaces/${other.id}/domains`, { hostname: bad })).status, bad).toBe(400);
    }
    const listed = await api(owner.token, 'GET', `/v1/spaces/${space.id}/domains`);
    expect(listed.json.domains.map((d: { hostname: string; status: string }) => [d.hostname, d.status])).toEqual([
      ['docs.example.com', 'active'],
      ['www.elsewhere.example', 'pending'],
    ]);

    expect((await api(owner.token, 'DELETE', `/v1/spaces/${space.id}/domains/docs.example.com`)).status).toBe(204);
    // The name is no one's now: the app answers it, as any other name.
    expect((await at('docs.example.com', '/')).text).not.toContain('Docs at home');
    expect((await rawRequest(server.origin, 'GET', '/v1/domains/check?domain=docs.example.com')).status).toBe(404);
  });

  it('hand members of a members-only space back to the domain they came from', async () => {
    const owner = await signIn('domain-members', 'web');
    const space = await makeSpace(owner.token, 'domain-members', { visibility: 'members' });
    await push(owner.token, space.id, { 'index.html': '<h1>Team handbook</h1>' });
    await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'handbook.example.org' });
    await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/handbook.example.org/verify`);

    const first = await at('handbook.example.org', '/guide/');
    expect(first.status).toBe(303);
    const toApp = new URL(first.headers.location as string);
    expect(toApp.pathname).toBe(`/s/${space.id}/guide/`);
    expect(toApp.searchParams.get('atrium-return')).toBe('http://handbook.example.org');
    const back = await rawRequest(server.origin, 'GET', toApp.pathname + toApp.search, { headers: { cookie: `atrium_session=${owner.token}` } });
    const landing = new URL(back.headers.location as string);
    expect(landing.origin).toBe('http://handbook.example.org');
    expect(landing.searchParams.has('atrium-return')).toBe(false);
    const exchange = await at('handbook.example.org', landing.pathname + landing.search);
    const cookie = (exchange.headers['set-cookie'] as string[])[0];
    // Over plain http the cookie cannot be Secure, so it is the host's own without the prefix.
    expect(cookie).toMatch(/^atrium_space=atrp_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    expect((await at('handbook.example.org', '/', { cookie: cookie.split(';')[0] })).text).toBe('<h1>Team handbook</h1>');
    // A return address that is not this space's domain is never handed a token.
    const forged = await rawRequest(server.origin, 'GET', `/s/${space.id}/?atrium-return=${encodeURIComponent('http://evil.example')}`, { headers: { cookie: `atrium_session=${owner.token}` } });
    expect(String(forged.headers.location ?? '')).not.toContain('evil.example');
  });
});
