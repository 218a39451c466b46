// Graceful drain of an HTTP server on SIGTERM: stop being ready (GET /readyz
// answers 503) and end every answer's connection; after DRAIN_NOTICE_SECONDS
// (time for load balancers to see it), stop accepting connections; let the
// requests in flight finish within DRAIN_TIMEOUT_SECONDS, closing keep-alive
// connections as they fall idle, so that the next request goes elsewhere.
import type { Server } from 'node:http';
import { config } from '../lib/config.ts';
import { isDraining, startDraining } from '../lib/ops/health.ts';
import { log } from '../lib/log.ts';

export type Drain = () => Promise<void>;

/** Counts `server`'s requests in flight from now on; returns the function that drains it. */
export function drainable(server: Server, timeoutMs = config.drainTimeoutMs, noticeMs = config.drainNoticeMs): Drain {
  let inFlight = 0;
  let settled: (() => void) | null = null;
  // Before the server's own handler, which may answer at once.
  server.prependListener('request', (_request, response) => {
    inFlight++;
    // During a drain, every answer ends its connection.
    if (isDraining()) response.setHeader('connection', 'close');
    response.once('close', () => {
      inFlight--;
      if (!settled) return;
      server.closeIdleConnections();
      if (inFlight === 0) settled();
    });
  });
  return async () => {
    startDraining();
    if (noticeMs > 0) await new Promise((resolve) => setTimeout(resolve, noticeMs));
    server.close();
    server.closeIdleConnections();
    if (inFlight > 0) {
      const started = Date.now();
      await new Promise<void>((resolve) => {
        settled = resolve;
        setTimeout(resolve, timeoutMs).unref();
      });
      log.info('drained', { ms: Date.now() - started, unfinished: inFlight });
    }
    server.closeAllConnections();
  };
}
