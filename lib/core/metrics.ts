// Prometheus metrics of this process (GET /metrics, behind METRICS_TOKEN).
// Counters are bumped where things happen; gauges of state that lives
// elsewhere (the database pool, open sockets) are read when scraped, through
// a source the owning module registers, so nothing here polls.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { config } from '../config.ts';

export const registry = new Registry();
registry.setDefaultLabels({ node: config.nodeId });
collectDefaultMetrics({ register: registry, prefix: 'atrium_process_' });
// prom-client names three gauges `_total`, which Prometheus keeps for counters; each is the
// sum over the `type` label of the gauge of the same name without it.
for (const name of ['active_handles', 'active_requests', 'active_resources']) registry.removeSingleMetric(`atrium_process_nodejs_${name}_total`);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const httpRequests = new Counter({
  name: 'atrium_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'atrium_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route template and method.',
  labelNames: ['route', 'method'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** Counts one answered request. `route` is a template (`/v1/spaces/{id}`), never a raw path, so labels stay few. */
export function observeRequest(route: string, method: string | undefined, status: number, seconds: number): void {
  const m = method && METHODS.has(method) ? method : 'other';
  httpRequests.inc({ route, method: m, status: String(status) });
  httpDuration.observe({ route, method: m }, seconds);
}

export const rateLimitRefusals = new Counter({
  name: 'atrium_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit, by the limit\'s name.',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export const storageSweeps = new Counter({
  name: 'atrium_storage_sweeps_total',
  help: 'Runs of the storage collector, by outcome.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const storageSweptBlobs = new Counter({
  name: 'atrium_storage_swept_blobs_total',
  help: 'Unreferenced blobs the storage collector deleted.',
  registers: [registry],
});

export const spacedbKills = new Counter({
  name: 'atrium_spacedb_workers_killed_total',
  help: 'Space-database worker processes killed because a query passed its deadline.',
  registers: [registry],
});

export const siteRulesCompiled = new Counter({
  name: 'atrium_site_rules_compiled_total',
  help: "Versions whose _redirects and _headers were compiled: each version's first use on this node, or again after the site cache dropped it.",
  registers: [registry],
});

export const realtimeSocketsOpened = new Counter({
  name: 'atrium_realtime_socket_upgrades_total',
  help: 'Room sockets opened on this node (upgrades accepted).',
  registers: [registry],
});

export const realtimeSocketRefusals = new Counter({
  name: 'atrium_realtime_socket_refusals_total',
  help: 'Room-socket upgrades refused, by the error code answered (unauthorized, not_found, rate_limited for a full room, unavailable while draining).',
  labelNames: ['code'] as const,
  registers: [registry],
});

export const realtimeSocketsDrained = new Counter({
  name: 'atrium_realtime_sockets_drained_total',
  help: 'Room sockets this node closed with 4205 (reconnect elsewhere) because it was draining.',
  registers: [registry],
});

export const dependencyUp = new Gauge({
  name: 'atrium_dependency_up',
  help: 'Whether a shared dependency (redis, storage) answered this node at its last use or check: 1 up, 0 down.',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

type Sample = Record<string, number>;

/**
 * A gauge whose value is read from a source at each scrape: one number, or
 * one per value of `label`. Returns the function the owning module registers
 * its source with.
 */
function sourcedGauge(name: string, help: string): (read: () => number) => void;
function sourcedGauge(name: string, help: string, label: string): (read: () => Sample) => void;
function sourcedGauge(name: string, help: string, label?: string) {
  let source: (() => number | Sample) | null = null;
  new Gauge({
    name,
    help,
    labelNames: label ? [label] : [],
    registers: [registry],
    collect() {
      this.reset();
      if (!source) return;
      const read = source();
      if (typeof read === 'number') return void this.set(read);
      for (const [key, value] of Object.entries(read)) this.set({ [label!]: key }, value);
    },
  });
  return (read: () => number | Sample) => {
    source = read;
  };
}

/** The PostgreSQL pool's connections, in use and idle. */
export const databasePoolConnections = sourcedGauge('atrium_db_pool_connections', 'Connections of the PostgreSQL pool, by state (in_use, idle).', 'state');
/** Queries waiting for a connection of the pool. */
export const databasePoolWaiting = sourcedGauge('atrium_db_pool_waiting_queries', 'Queries waiting for a connection of the PostgreSQL pool.');

/** Room sockets open on this node. */
export const realtimeSockets = sourcedGauge('atrium_realtime_sockets', 'Room sockets open on this node.');
/** Documents (rooms and live spaces) loaded on this node. */
export const realtimeDocuments = sourcedGauge('atrium_realtime_documents', 'Room and live-space documents loaded on this node.');

/** Space-database worker processes, busy and idle. */
export const spacedbWorkers = sourcedGauge('atrium_spacedb_workers', 'Space-database worker processes, by state (busy, idle).', 'state');
/** Space-database jobs waiting for a worker. */
export const spacedbQueuedJobs = sourcedGauge('atrium_spacedb_queued_jobs', 'Space-database jobs waiting for a worker.');

/** The cache of versions' chunk indexes and compiled rules: versions held, and their estimated bytes. */
export const siteCacheVersions = sourcedGauge('atrium_site_cache_versions', 'Published versions kept in memory to serve (chunk index and compiled rules).');
export const siteCacheBytes = sourcedGauge('atrium_site_cache_bytes', 'Estimated bytes of the published versions kept in memory to serve.');
