// The front server (server/) on a free port of this machine, for tests that
// speak HTTP to it as clients do: raw paths, odd headers, real sockets.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { createFrontServer } from '@/server/index.ts';

export function useFrontServer() {
  const server = createFrontServer();
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    get origin() {
      return origin;
    },
  };
}

/**
 * A Fetch Request sent over a socket to the front server at `origin`, with
 * the request URL's host as its Host: a site or an app answered by the
 * production path. A request that names its client in PEER_HEADER (a
 * loopback address) is sent from that address, as the server trusts only the
 * socket's.
 */
export async function overSocket(origin: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const server = new URL(origin);
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  const peer = headers[PEER_HEADER];
  delete headers[PEER_HEADER];
  headers.host = url.host;
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: server.hostname, port: server.port, method: request.method, path: `${url.pathname}${url.search}`, headers, agent: false, localAddress: peer },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) for (const one of [value ?? []].flat()) answer.append(name, one);
          const status = incoming.statusCode!;
          const bodyless = request.method === 'HEAD' || [204, 304].includes(status);
          resolve(new Response(bodyless ? null : new Uint8Array(Buffer.concat(chunks)), { status, headers: answer }));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body ?? undefined);
  });
}
