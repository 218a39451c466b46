// Graceful drain of an HTTP server on SIGTERM: stop being ready (GET /readyz
// answers 503), stop accepting connections, let the requests in flight finish
// within DRAIN_TIMEOUT_SECONDS, and close keep-alive connections as they fall
// idle so that a load balancer sends their next request to another node.
import type { Server } from 'node:http';
import { config } from '../lib/config.ts';
import { isDraining, startDraining } from '../lib/ops/health.ts';
import { log } from '../lib/log.ts';

export type Drain = () => Promise<void>;

/** Counts `server`'s requests in flight from now on; returns the function that drains it. */
export function drainable(server: Server, timeoutMs = config.drainTimeoutMs): Drain {
  let inFlight = 0;
  let settled: (() => void) | null = null;
  server.on('request', (_request, response) => {
    inFlight++;
    // During a drain, every answer ends its connection.
    if (isDraining()) response.setHeader('connection', 'close');
    response.once('close', () => {
      inFlight--;
      if (!isDraining()) return;
      server.closeIdleConnections();
      if (inFlight === 0) settled?.();
    });
  });
  return async () => {
    startDraining();
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
