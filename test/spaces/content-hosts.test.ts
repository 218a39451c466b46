// The front server tells a site's request from the app's by its Host: on a
// content host every path is the site's, and the API, the pages and room
// sockets are never answered there.
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { createFrontServer } from '@/server/index.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();

describe('content hosts', () => {
  it("answer every path with the site's files, never the API", async () => {
    const owner = await signIn('hosted-paths', 'web');
    const space = await makeSpace(owner.token, 'hosted-paths');
    await push(owner.token, space.id, { 'index.html': '<h1>Home</h1>', 'v1/me': 'a file named like the API' });
    const site = onPort(siteUrl(space.id), server.origin);
    expect((await rawRequest(site, 'GET', '/')).text).toBe('<h1>Home</h1>');
    expect((await rawRequest(site, 'GET', '/v1/me', { headers: { authorization: `Bearer ${owner.token}` } })).text).toBe('a file named like the API');
    expect((await rawRequest(site, 'GET', '/openapi.json')).status).toBe(404);
    // A host under the content domain that names no site is no site, not the app.
    const nothing = await rawRequest(onPort('http://anything.localhost', server.origin), 'GET', '/v1/me', { headers: { authorization: `Bearer ${owner.token}` } });
    expect(nothing.status).toBe(404);
    expect(nothing.text).toContain('There is no site at this address.');
    // The app's own host still answers the API.
    expect((await rawRequest(server.origin, 'GET', '/v1/me', { headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(200);
  });

  it('refuse WebSocket upgrades (room sockets belong to the app)', async () => {
    // A server whose upgrade handler takes every socket it is offered, as the realtime server takes room sockets.
    const taker = createFrontServer({ upgrades: (_request, socket) => (socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\n'), true) });
    await new Promise<void>((resolve) => taker.listen(0, '127.0.0.1', resolve));
    const port = (taker.address() as AddressInfo).port;
    const upgrade = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /v1/rooms/rm_x/ws HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
        });
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    try {
      expect(await upgrade(`localhost:${port}`)).toMatch(/^HTTP\/1\.1 101/);
      expect(await upgrade(`sp-${'y'.repeat(21)}.localhost:${port}`)).toMatch(/^HTTP\/1\.1 404/);
    } finally {
      taker.closeAllConnections();
      await new Promise((resolve) => taker.close(resolve));
    }
  });
});
