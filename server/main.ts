// The server process: `node server/main.ts [--dev | --api-only]` (PORT and
// HOST from the environment), started by scripts/start.ts. `--api-only` serves
// everything but the web app's pages (404), and so needs no Next build. The
// route modules under app/v1 import with Next's `@/` alias; a resolve hook
// maps it to the project root, so Node runs them from source as Next does.
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('@/')) return nextResolve(pathToFileURL(path.join(root, specifier.slice(2))).href, context);
    return nextResolve(specifier, context);
  },
});

const { createFrontServer } = await import('./index.ts');
const { config } = await import('../lib/config.ts');
const { log } = await import('../lib/log.ts');
const { startStorageSweeper } = await import('../lib/storage/gc.ts');
const { startBackgroundWork } = await import('./jobs.ts');
const { createRealtime } = await import('../realtime/server.ts');
const { drainable } = await import('./drain.ts');
const { listenOrExit, onStopRequest } = await import('./lifecycle.ts');
const { flushViews } = await import('../lib/spaces/visitors.ts');

const dev = process.argv.includes('--dev');
const apiOnly = process.argv.includes('--api-only');
const pages = apiOnly ? null : await nextPages();

async function nextPages() {
  const { default: next } = await import('next');
  const app = next({ dev, dir: root, hostname: config.host, port: config.port });
  await app.prepare();
  return app;
}

// Room sockets: Next route handlers cannot take upgrades, so the front server
// hands them to the realtime server (which can also run alone: npm run realtime).
const realtime = createRealtime();
const handle = pages?.getRequestHandler();
const server = createFrontServer({ pages: handle && ((request, response) => void handle(request, response)), upgrades: realtime.handleUpgrade });
if (dev && pages) {
  const nextUpgrade = pages.getUpgradeHandler();
  server.on('upgrade', (request, socket, head) => {
    if (!/^\/v1\/(rooms|live-spaces)\/[^/]+\/ws(\?|$)/.test(request.url ?? '')) void nextUpgrade(request, socket, head);
  });
}
const drain = drainable(server);
listenOrExit(server, config.port, config.host, (port) => {
  log.info('listening', { port, pages: !apiOnly });
  // Tells scripts/start.ts, which then waits for /readyz on this port to say Atrium is ready. When
  // it is gone already, the send fails quietly: the channel's close makes this node drain.
  process.send?.({ listening: port }, undefined, undefined, () => {});
});
// Reclaims unreferenced blobs and stale temporary files (safe to run on every instance at once).
const stopSweeper = startStorageSweeper();
// The job queue's workers (webhook deliveries, ...): every instance runs them, each job goes to one.
const background = startBackgroundWork();
background.catch((error: unknown) => {
  log.error('the job queue did not start', { error: String(error) });
  process.exit(1);
});

// A stop request drains (server/drain.ts): not ready, no new connections after
// the notice, requests in flight finish; room sockets are told to reconnect
// elsewhere once every document is stored.
onStopRequest({
  async drain() {
    stopSweeper();
    // Workers stop taking jobs and finish those in flight.
    await Promise.all([background.then((stop) => stop()), drain(), realtime.stop()]);
    // Views are written in batches: the last one before leaving.
    await flushViews();
    process.exit(0);
  },
  force: () => process.exit(1),
});
