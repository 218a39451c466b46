// The HTTP server in front of Next (started by scripts/start.ts). It differs
// from `next start` in one thing: it passes the TCP peer's address to the app
// in the x-atrium-peer header (replacing any such header a client sent), since
// Next's route handlers cannot see the socket. lib/http/client.ts reads it.
//   node scripts/serve.ts [--dev]   (PORT, HOST from the environment)
import { createServer } from 'node:http';
import path from 'node:path';
import next from 'next';
import { PEER_HEADER } from '../lib/http/client.ts';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const app = next({ dev, dir: path.resolve(import.meta.dirname, '..'), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
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
