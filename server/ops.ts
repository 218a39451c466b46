// The operator's endpoints, outside /v1 and outside the API's contract, on
// the web nodes and on standalone realtime nodes alike:
//   GET /healthz  the process is alive (always 200 while it answers), with the shared
//                 dependencies as last seen (lib/core/dependencies.ts)
//   GET /readyz   it can serve now (lib/ops/health.ts); 503 while draining
//   GET /metrics  Prometheus text format, with `Authorization: Bearer <METRICS_TOKEN>`;
//                 404 when METRICS_TOKEN is unset, so nothing is exposed by default
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../lib/config.ts';
import { dependencyStates } from '../lib/core/dependencies.ts';
import { readiness } from '../lib/ops/health.ts';
import { registry } from '../lib/core/metrics.ts';

export const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function send(response: ServerResponse, status: number, body: string, type = 'application/json') {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

const refusal = (code: string, message: string) => JSON.stringify({ error: { code, message } });

const digest = (value: string) => createHash('sha256').update(value).digest();

function metricsAllowed(request: IncomingMessage): boolean {
  const header = request.headers.authorization ?? '';
  const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
  // Compared as digests: equal lengths, and no timing hint about the token.
  return timingSafeEqual(digest(presented), digest(config.metricsToken!));
}

/** Answers one of OPS_PATHS (the caller checked the path). */
export async function answerOps(request: IncomingMessage, response: ServerResponse, context: { route?: string }, _target: string, path: string): Promise<void> {
  context.route = path;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return send(response, 405, refusal('method_not_allowed', `${request.method} is not allowed on ${path}; use GET.`));
  }
  if (path === '/healthz') return send(response, 200, JSON.stringify({ alive: true, node: config.nodeId, dependencies: dependencyStates() }));
  if (path === '/readyz') {
    const state = await readiness();
    return send(response, state.ready ? 200 : 503, JSON.stringify({ ...state, node: config.nodeId }));
  }
  if (!config.metricsToken) return send(response, 404, refusal('not_found', 'Metrics are off on this server (METRICS_TOKEN is not set).'));
  if (!metricsAllowed(request)) {
    response.setHeader('www-authenticate', 'Bearer realm="metrics"');
    return send(response, 401, refusal('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.'));
  }
  send(response, 200, await registry.metrics(), registry.contentType);
}
