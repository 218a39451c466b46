// Atrium's one HTTP server. A request for a host under the content domain is
// a published site's or a live app's (lib/spaces/hosts.ts), whatever its
// path. On the app's own host it answers the API (/v1, by calling the route
// modules), sites and apps without hosts of their own (/s/…, /a/…) and
// download links (/dl/…) itself, and hands everything else, the web app's
// pages, to Next. One log line per request, whoever answered it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { config } from '../lib/config.ts';
import { PEER_HEADER } from '../lib/core/client.ts';
import { errorResponse } from '../lib/core/errors.ts';
import { failureResponse } from '../lib/ops/failures.ts';
import { requestContext, type RequestContext } from './http/request-context.ts';
import { log } from '../lib/log.ts';
import { observeRequest } from '../lib/core/metrics.ts';
import { answerApi } from './api.ts';
import { sendWebResponse } from './http/node.ts';
import { answerApp } from './apps.ts';
import { answerOps, OPS_PATHS } from './ops.ts';
import { domainOf } from '../lib/spaces/domains.ts';
import { contentHostOf, type ContentHost } from '../lib/spaces/hosts.ts';
import { listenForSpaceChanges } from '../lib/spaces/space-cache.ts';
import { applyPagePolicy } from './page-policy.ts';
import { notFoundPage } from './pages.ts';
import { answerDownload, answerSite, domainAnswerer } from './sites.ts';

const REQUEST_ID = /^[\w.:-]{1,64}$/;

export type FrontServerOptions = {
  /** Answers what the server does not: the pages. Without it (tests), such paths are 404. */
  pages?: RequestListener;
  /**
   * Takes WebSocket upgrades (the realtime server's room sockets); returns
   * false for an upgrade it does not want. Upgrades nobody takes are refused.
   */
  upgrades?: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
};

type Answer = (request: IncomingMessage, response: ServerResponse, context: RequestContext, target: string, rawPath: string) => Promise<void>;

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function answererOf(rawPath: string): Answer | null {
  if (OPS_PATHS.has(rawPath)) return answerOps;
  if (under(rawPath, '/v1')) return answerApi;
  if (under(rawPath, '/dl')) return answerDownload;
  if (rawPath.startsWith('/s/')) return answerSite;
  if (rawPath.startsWith('/a/')) return answerApp;
  return null;
}

const answerNothing: Answer = async (request, response, context) => {
  context.route = 'content-host';
  await sendWebResponse(request, response, notFoundPage('There is no site at this address.', null, config.publicUrl));
};

/** A content host's requests: every path belongs to its site or app; the API and the pages are never here. */
function contentAnswerer(host: ContentHost): Answer {
  if (host.kind === 'space') return answerSite;
  if (host.kind === 'app') return answerApp;
  return answerNothing;
}

/**
 * The Host's name when it could be a space's custom domain: a DNS name that is
 * not the app's own, an address, or localhost (requests by address, health
 * checks and tests never cost a lookup).
 */
function customDomainName(host: string | undefined): string | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!name.includes('.') || name === appHostname || /^[\d.]+$/.test(name) || name.startsWith('[') || name.endsWith('.localhost')) return null;
  return name;
}

const appHostname = new URL(config.publicUrl).hostname;

/** Counts the answered request in /metrics and logs its line. */
function finished(request: IncomingMessage, response: ServerResponse, context: RequestContext, started: number) {
  const ms = performance.now() - started;
  observeRequest(context.route ?? 'page', request.method, response.statusCode, ms / 1000);
  if (!config.logRequests) return;
  log.info('request', {
    requestId: context.requestId,
    method: request.method,
    route: context.route ?? 'page',
    status: response.statusCode,
    ms: Math.round(ms * 10) / 10,
    userId: context.userId,
    aborted: response.writableFinished ? undefined : true,
  });
}

export function createFrontServer(options: FrontServerOptions = {}): Server {
  const server = createServer((request, response) => {
    const started = performance.now();
    const incoming = request.headers['x-request-id'];
    const context: RequestContext = { requestId: typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID() };
    request.headers['x-request-id'] = context.requestId;
    response.setHeader('x-request-id', context.requestId);
    response.once('close', () => finished(request, response, context, started));

    const target = request.url ?? '/';
    const rawPath = target.split('?')[0];
    const content = contentHostOf(request.headers.host);
    const respond = (answer: Answer | null) => {
      if (!answer) {
        if (options.pages && target.startsWith('/') && !content) {
          // Pages see the client's address as the API does (lib/core/client.ts).
          request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
          applyPagePolicy(request, response);
          return options.pages(request, response);
        }
        return void sendWebResponse(request, response, errorResponse('not_found', `No page ${rawPath.slice(0, 200)}.`));
      }
      requestContext.run(context, () =>
        answer(request, response, context, target, rawPath).catch((error: unknown) => {
          const failure = failureResponse(error, context.requestId, context.route);
          if (response.headersSent) return void response.destroy();
          void sendWebResponse(request, response, failure);
        }),
      );
    };
    if (!target.startsWith('/')) return respond(null);
    if (content) return respond(contentAnswerer(content));
    const domain = customDomainName(request.headers.host);
    if (!domain) return respond(answererOf(rawPath));
    // A name of someone's (docs.example.com): a space's verified custom domain, else nothing here, never
    // the app (a removed or unverified name that still points at Atrium must not serve its pages or API).
    domainOf(domain).then(
      (found) => respond(found ? domainAnswerer(found) : OPS_PATHS.has(rawPath) ? answerOps : answerNothing),
      (error: unknown) => {
        log.error('custom domain lookup failed', { requestId: context.requestId, error: error instanceof Error ? error.message : String(error) });
        void sendWebResponse(request, response, errorResponse('unavailable', 'This address cannot be looked up right now; try again shortly.'));
      },
    );
  });
  // Requests Node's parser refuses (a malformed Content-Length, oversized headers) still get the envelope.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({ error: tooLarge ? { code: 'too_large', message: 'The request headers are too large.' } : { code: 'bad_request', message: 'The request is malformed HTTP.' } });
    socket.end(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Room sockets belong to the app's host, never to a site's.
    if (!contentHostOf(request.headers.host) && options.upgrades?.(request, socket, head)) return;
    // Other listeners (Next's dev server, for its hot reload) may take it.
    if (server.listenerCount('upgrade') > 1) return;
    socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  // Anonymous visitors' space records are kept while this server runs (lib/spaces/space-cache.ts).
  const stopSpaceCache = listenForSpaceChanges();
  server.once('close', () => void stopSpaceCache());
  // A client that sends headers or a body too slowly is cut off rather than holding a socket for ever.
  server.headersTimeout = 30_000;
  server.requestTimeout = 15 * 60_000;
  return server;
}
