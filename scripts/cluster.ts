// `npm run cluster`: three web nodes, two realtime nodes, PostgreSQL, Redis and
// HAProxy in front, on this machine (scripts/cluster/harness.ts). Ctrl-C stops
// everything. Options: --port N (the load balancer's, default 8080),
// --web N, --realtime N. See docs/deploy.md.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseUrl, ensureDatabase, handleStopSignals, startEmbeddedPostgres } from '../lib/db/embedded-postgres.ts';
import { migrate } from '../lib/db/migrate.ts';
import { ClusterSetupError, startCluster } from './cluster/harness.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    web: { type: 'string', default: '3' },
    realtime: { type: 'string', default: '2' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run cluster -- [--port 8080] [--web 3] [--realtime 2]

Starts an Atrium cluster on this machine: web nodes and realtime nodes behind HAProxy,
sharing one PostgreSQL (DATABASE_URL, or an embedded one under .atrium/cluster), one Redis
(REDIS_URL, or redis-server on a free port) and the blob store. Needs haproxy on the PATH
and a build (npm run build). Logs: .atrium/cluster/logs/<node>.log. Ctrl-C stops it all.

Every variable set reaches every node: DEV_AUTH=true for sign-in by handle alone (else,
without SMTP_URL, sign-in links are in the web nodes' logs); METRICS_TOKEN for /metrics
(made up when unset and written to .atrium/cluster/metrics-token, readable by you alone).`);
  process.exit(0);
}

const say = (line: string) => console.log(line);
const dataDir = path.resolve(process.env.DATA_DIR ?? '.atrium/cluster');
let stopDatabase = async () => {};
let url = process.env.DATABASE_URL;
if (!url) {
  const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), log: say });
  stopDatabase = server.stop;
  await ensureDatabase(server.serverUrl, 'atrium');
  url = databaseUrl(server.serverUrl, 'atrium');
}
await migrate(url);

// /metrics answers only with a token; one is made up so that the cluster's
// metrics can be read, and kept in a file rather than printed with the logs.
const metricsToken = process.env.METRICS_TOKEN ?? randomBytes(24).toString('hex');
const metricsTokenFile = path.join(dataDir, 'metrics-token');
await mkdir(dataDir, { recursive: true });
await writeFile(metricsTokenFile, metricsToken, { mode: 0o600 });

let cluster: Awaited<ReturnType<typeof startCluster>>;
try {
  cluster = await startCluster({
    dataDir,
    databaseUrl: url,
    redisUrl: process.env.REDIS_URL,
    port: Number(values.port),
    webNodes: Number(values.web),
    realtimeNodes: Number(values.realtime),
    env: { METRICS_TOKEN: metricsToken },
    log: say,
  });
} catch (error) {
  console.error(error instanceof ClusterSetupError ? error.message : error);
  await stopDatabase();
  process.exit(1);
}
say(`Atrium is running on ${cluster.origin} (Ctrl-C stops it)`);
say(
  process.env.DEV_AUTH === 'true'
    ? 'Sign in by handle alone (DEV_AUTH=true).'
    : `Sign in by e-mail: ${process.env.SMTP_URL ? 'links are sent through SMTP_URL' : `the link is in the log of the web node that took the request: grep 'sign-in link' ${path.join(dataDir, 'logs')}/web-*.log`}.`,
);
say(`Metrics (each node answers for itself): curl -H "authorization: Bearer $(cat ${metricsTokenFile})" ${cluster.origin}/metrics`);
handleStopSignals(() => {
  void cluster.stop().then(stopDatabase).then(() => process.exit(0));
});
