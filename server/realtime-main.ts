// `npm run realtime`: the realtime server alone, on REALTIME_PORT, taking only
// room socket upgrades (and answering /healthz, /readyz and /metrics); the web server runs elsewhere and its tickets point
// here when REALTIME_URL is set. A stop request stores every document before exiting.
import { createServer } from 'node:http';
import { config } from '../lib/config.ts';
import { log } from '../lib/log.ts';
import { drainable } from './drain.ts';
import { listenOrExit, onStopRequest } from './lifecycle.ts';
import { answerOps, OPS_PATHS } from './ops.ts';
import { createRealtime } from '../realtime/server.ts';

const realtime = createRealtime({ name: process.env.REALTIME_NAME ?? config.nodeId });
const server = createServer((request, response) => {
  // Health and metrics for the load balancer and the operator, as on web nodes.
  const path = (request.url ?? '/').split('?')[0];
  if (OPS_PATHS.has(path)) {
    return void answerOps(request, response, {}, path, path).catch(() => response.destroy());
  }
  response.writeHead(426, { 'content-type': 'application/json', upgrade: 'websocket' });
  response.end(JSON.stringify({ error: { code: 'upgrade_required', message: 'This server only takes room WebSockets.' } }));
});
server.on('upgrade', (request, socket, head) => {
  if (!realtime.handleUpgrade(request, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
});
const drain = drainable(server);
await realtime.ready;
listenOrExit(server, config.realtimePort, config.host, (port) => {
  log.info('realtime listening', { port });
  // Tests and supervisors read this line to know the node is up.
  process.stdout.write(`realtime ready ${port}\n`);
});

// A stop request (server/lifecycle.ts): not ready any more, every document
// stored, then every socket told to reconnect (to another node, through the
// load balancer).
onStopRequest({
  async drain() {
    await Promise.all([drain(), realtime.stop()]);
    process.exit(0);
  },
  force: () => process.exit(1),
});
