// docs/deploy/Caddyfile, run as it is in front of a test server, the whole
// path through Caddy: a claim verified by its DNS record (from a stub), Caddy
// asking Atrium before it gets a certificate for a name (on-demand TLS), so
// only a verified domain of a published space is served over https; port 80
// sending every name to https; a removed domain, whose certificate Caddy
// still holds, answered 404 by Atrium and never the app. Caddy's own CA
// stands in for Let's Encrypt, which a test cannot reach.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { request as plainRequest } from 'node:http';
import { request } from 'node:https';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsLookup } from '@/lib/spaces/domains.ts';
import { startDnsStub, type DnsStub } from '../dns-stub.ts';
import { signIn } from '../helpers.ts';
import { rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';

const hasCaddy = spawnSync('caddy', ['version']).status === 0;
// CI installs Caddy (.ci/run); elsewhere the test says it was skipped rather than fail for a missing program.
const run = hasCaddy || process.env.CI ? describe : describe.skip;
if (!hasCaddy && !process.env.CI) console.warn('caddy is not installed: the Caddyfile test is skipped (apt-get install caddy)');

const server = useFrontServer();
let caddy: ChildProcess | null = null;
let httpsPort = 0;
let httpPort = 0;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function listening(port: number, deadline = Date.now() + 20_000): Promise<void> {
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Caddy did not listen on ${port}`);
}

/** GET https://<name><path> through Caddy, as a browser whose DNS points the name at it. */
function visit(name: string, path = '/'): Promise<{ status: number; text: string; issuer: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: httpsPort, servername: name, headers: { host: name }, path, rejectUnauthorized: false, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const certificate = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        resolve({ status: res.statusCode ?? 0, text, issuer: String(certificate.issuer?.CN ?? '') });
      });
    });
    req.on('error', (error) => resolve({ error: error.message }));
    req.end();
  });
}

/** GET http://<name><path> on Caddy's port 80 (here HTTP_PORT). */
function visitPlain(name: string, path: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = plainRequest({ host: '127.0.0.1', port: httpPort, headers: { host: name }, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject).end();
  });
}

run('the Caddyfile in docs/deploy', () => {
  const saved = { ...dnsLookup };
  let dns: DnsStub;
  beforeAll(async () => {
    dns = await startDnsStub();
    dnsLookup.servers = [dns.server];
    httpsPort = await freePort();
    httpPort = await freePort();
    const home = await mkdtemp(path.join(tmpdir(), 'atrium-caddy-'));
    caddy = spawn('caddy', ['run', '--config', 'docs/deploy/Caddyfile', '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_CONFIG_HOME: path.join(home, 'config'),
        CADDY_ADMIN: 'off',
        HTTP_PORT: String(httpPort),
        HTTPS_PORT: String(httpsPort),
        TLS_ISSUER: 'internal',
        ATRIUM_UPSTREAM: new URL(server.origin).host,
        ATRIUM_ASK: `${server.origin}/v1/domains/check`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    caddy.stderr!.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
    caddy.on('exit', (code) => code && code !== 0 && console.error(`caddy exited with ${code}:\n${log}`));
    await listening(httpsPort);
    await listening(httpPort);
  }, 30_000);
  afterAll(async () => {
    Object.assign(dnsLookup, saved);
    await dns.close();
    caddy?.kill('SIGTERM');
  });

  it('serves an active custom domain over https with a certificate got on demand, and no other name', { timeout: 60_000 }, async () => {
    const owner = await signIn('caddy-owner', 'web');
    const space = await makeSpace(owner.token, 'caddy-owner');
    await push(owner.token, space.id, { 'index.html': '<h1>Served through Caddy</h1>' });
    const api = (method: string, route: string, body?: unknown) =>
      rawRequest(server.origin, method, route, { headers: { authorization: `Bearer ${owner.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const { record } = (await api('POST', `/v1/spaces/${space.id}/domains`, { hostname: 'docs.caddy-test.example' })).json.verification;
    dns.txt.set(record.name, [record.value]);

    // Not verified yet: Caddy is told no, so the handshake fails.
    expect(await visit('docs.caddy-test.example')).toMatchObject({ error: expect.any(String) });
    expect((await api('POST', `/v1/spaces/${space.id}/domains/docs.caddy-test.example/verify`)).json.status).toBe('active');

    const page = await visit('docs.caddy-test.example');
    expect(page).toMatchObject({ status: 200, text: '<h1>Served through Caddy</h1>' });
    expect((page as { issuer: string }).issuer).toMatch(/Caddy Local Authority/);
    expect(await visit('someone-else.example')).toMatchObject({ error: expect.any(String) });
    // Under the name, every path is the site's: not the API, nor the ask endpoint.
    expect(await visit('docs.caddy-test.example', '/v1/me')).toMatchObject({ status: 404, text: expect.not.stringContaining('"error"') });
    expect(await visit('docs.caddy-test.example', '/v1/domains/check?domain=docs.caddy-test.example')).toMatchObject({ status: 404 });

    // Port 80 sends the name to https (on 443: the location names no port), path and query kept;
    // Caddy answers ACME's own HTTP challenges there first.
    expect(await visitPlain('docs.caddy-test.example', '/guide/?a=1')).toEqual({ status: 308, location: 'https://docs.caddy-test.example/guide/?a=1' });

    // Removed: Caddy still holds the certificate, and Atrium answers 404 for every path, never the space or the app.
    expect((await api('DELETE', `/v1/spaces/${space.id}/domains/docs.caddy-test.example`)).status).toBe(204);
    for (const path of ['/', '/v1/me', '/settings', '/v1/domains/check?domain=docs.caddy-test.example']) {
      const gone = await visit('docs.caddy-test.example', path);
      expect(gone).toMatchObject({ status: 404 });
      expect((gone as { text: string }).text).not.toContain('Served through Caddy');
      expect((gone as { text: string }).text).toContain('There is no site at this address.');
    }
    expect(await visit('docs.caddy-test.example', '/readyz')).toMatchObject({ status: 200 });
  });

  it('gets no certificate for a verified domain of a space never published, nor for a claim not verified', { timeout: 60_000 }, async () => {
    const owner = await signIn('caddy-unpublished', 'web');
    const space = await makeSpace(owner.token, 'caddy-unpublished');
    const api = (method: string, route: string, body?: unknown) =>
      rawRequest(server.origin, method, route, { headers: { authorization: `Bearer ${owner.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const claim = async (hostname: string) => (await api('POST', `/v1/spaces/${space.id}/domains`, { hostname })).json.verification.record;
    const verified = await claim('empty.caddy-test.example');
    dns.txt.set(verified.name, [verified.value]);
    expect((await api('POST', `/v1/spaces/${space.id}/domains/empty.caddy-test.example/verify`)).json.status).toBe('active');
    await claim('pending.caddy-test.example');

    for (const name of ['empty.caddy-test.example', 'pending.caddy-test.example']) {
      expect((await rawRequest(server.origin, 'GET', `/v1/domains/check?domain=${name}`)).status).toBe(404);
      expect(await visit(name)).toMatchObject({ error: expect.any(String) });
      // Port 80 only redirects; no certificate waits on the other side.
      expect(await visitPlain(name, '/')).toMatchObject({ status: 308 });
    }
    // Published, the verified name gets its certificate on the next visit.
    await push(owner.token, space.id, { 'index.html': '<h1>Now published</h1>' });
    expect(await visit('empty.caddy-test.example')).toMatchObject({ status: 200, text: '<h1>Now published</h1>' });
  });
});
