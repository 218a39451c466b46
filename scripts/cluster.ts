// `npm run cluster`: three web nodes, two realtime nodes, PostgreSQL, Redis and
// HAProxy in front, on this machine (scripts/cluster/harness.ts). Ctrl-C stops
// everything. Options: --port N (the load balancer's, default 8080),
// --web N, --realtime N. See docs/deploy.md.
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
and a build (npm run build). Logs: .atrium/cluster/logs/<node>.log. Ctrl-C stops it all.`);
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

let cluster: Awaited<ReturnType<typeof startCluster>>;
try {
  cluster = await startCluster({
    dataDir,
    databaseUrl: url,
    redisUrl: process.env.REDIS_URL,
    port: Number(values.port),
    webNodes: Number(values.web),
    realtimeNodes: Number(values.realtime),
    log: say,
  });
} catch (error) {
  console.error(error instanceof ClusterSetupError ? error.message : error);
  await stopDatabase();
  process.exit(1);
}
say(`Atrium is running on ${cluster.origin} (Ctrl-C stops it)`);
handleStopSignals(() => {
  void cluster.stop().then(stopDatabase).then(() => process.exit(0));
});
