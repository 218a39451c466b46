// The HTTP server in front of Next (started by scripts/start.ts). It differs
// from `next start` in two things:
// - it passes the TCP peer's address to the app in the x-atrium-peer header
//   (replacing any such header a client sent), since Next's route handlers
//   cannot see the socket. lib/http/client.ts reads it;
// - it answers published sites (/s/<id>/…) itself, with the same function as
//   app/s/[id] (which answers them under --dev): each is a file read for which
//   Next's request handling costs more than the file (see the publish benchmark).
//   node scripts/serve.ts [--dev]   (PORT, HOST from the environment)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import next from 'next';
import { PEER_HEADER } from '../lib/http/client.ts';
import { SECURITY_HEADERS } from '../lib/http/security-headers.ts';
import { log } from '../lib/log.ts';
import { serveSite, unlockSite } from '../lib/spaces/serving.ts';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const app = next({ dev, dir: path.resolve(import.meta.dirname, '..'), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const SITE_PATH = /^\/s\/([^/?#]+)/;

async function answerSite(request: IncomingMessage, response: ServerResponse, encodedId: string) {
  const id = decodeURIComponent(encodedId);
  // The URL as Next would build it for a route handler.
  const protocol = String(request.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim();
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const post = request.method === 'POST';
  const webRequest = new Request(`${protocol}://${request.headers.host}${request.url}`, {
    method: request.method,
    headers,
    body: post ? (Readable.toWeb(request) as unknown as BodyInit) : undefined,
    duplex: 'half',
  } as RequestInit);
  const answer = post ? await unlockSite(webRequest, id) : await serveSite(webRequest, id);
  const merged = new Headers(SECURITY_HEADERS);
  for (const [name, value] of answer.headers) if (name !== 'set-cookie') merged.set(name, value);
  const out: Record<string, string | string[]> = Object.fromEntries(merged);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  response.writeHead(answer.status, out);
  if (answer.body && request.method !== 'HEAD') await pipeline(Readable.fromWeb(answer.body as ReadableStream), response);
  else response.end();
}

const server = createServer((request, response) => {
  request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
  const site = dev ? null : SITE_PATH.exec(request.url ?? '');
  if (site && ['GET', 'HEAD', 'POST'].includes(request.method ?? '')) {
    answerSite(request, response, site[1]).catch((error: unknown) => {
      log.error('serving a published site failed', { url: request.url, error: error instanceof Error ? error.stack : String(error) });
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Something went wrong on our side.');
    });
    return;
  }
  void handle(request, response);
});
if (dev) server.on('upgrade', app.getUpgradeHandler());
server.listen(port, hostname);

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
