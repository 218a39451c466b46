// docs/deploy/Caddyfile, run as it is in front of a test server: Caddy asks
// Atrium before it gets a certificate for a name (on-demand TLS), so an active
// custom domain is served over https and any other name gets no certificate.
// Caddy's own CA stands in for Let's Encrypt, which a test cannot reach.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
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

/** GET https://<name>/ through Caddy, as a browser whose DNS points the name at it. */
function visit(name: string): Promise<{ status: number; text: string; issuer: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: httpsPort, servername: name, headers: { host: name }, path: '/', rejectUnauthorized: false, agent: false }, (res) => {
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

run('the Caddyfile in docs/deploy', () => {
  const saved = { ...dnsLookup };
  let dns: DnsStub;
  beforeAll(async () => {
    dns = await startDnsStub();
    dnsLookup.servers = [dns.server];
    httpsPort = await freePort();
    const home = await mkdtemp(path.join(tmpdir(), 'atrium-caddy-'));
    caddy = spawn('caddy', ['run', '--config', 'docs/deploy/Caddyfile', '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_CONFIG_HOME: path.join(home, 'config'),
        CADDY_ADMIN: 'off',
        HTTP_PORT: String(await freePort()),
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
  });
});
