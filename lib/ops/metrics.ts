// Prometheus metrics of this process (GET /metrics, behind METRICS_TOKEN).
// Counters are bumped where things happen; gauges of state that lives
// elsewhere (the database pool, open sockets) are read when scraped, through
// a source the owning module registers, so nothing here polls.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { config } from '../config.ts';

export const registry = new Registry();
registry.setDefaultLabels({ node: config.nodeId });
collectDefaultMetrics({ register: registry, prefix: 'atrium_process_' });

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

type Sample = Record<string, number>;

/** A gauge whose values are read from `source` at each scrape; one label says which value. */
function sourcedGauge(name: string, help: string, label: string) {
  let source: (() => Sample) | null = null;
  new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      if (!source) return;
      for (const [key, value] of Object.entries(source())) this.set({ [label]: key }, value);
    },
  });
  return (read: () => Sample) => {
    source = read;
  };
}

/** The PostgreSQL pool: connections in use and idle, and requests waiting for one. */
export const databasePoolSource = sourcedGauge('atrium_db_pool_connections', 'Connections of the PostgreSQL pool, by state (in_use, idle, waiting).', 'state');

/** Realtime: open room sockets and documents (rooms and live spaces) loaded on this node. */
export const realtimeSource = sourcedGauge('atrium_realtime', 'Realtime state on this node: open sockets and loaded rooms.', 'what');

/** Space-database worker processes: busy, idle, and jobs queued for one. */
export const spacedbSource = sourcedGauge('atrium_spacedb_workers', 'Space-database workers by state (busy, idle) and jobs queued.', 'state');

/** The cache of versions' chunk indexes and compiled rules: versions held, and the estimated bytes. */
export const siteCacheSource = sourcedGauge('atrium_site_cache', "Published versions kept in memory to serve (chunk index and compiled rules): versions, and their estimated bytes.", 'what');
