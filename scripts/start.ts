// `npm start`: the whole service in one command. Starts the embedded
// PostgreSQL when DATABASE_URL is unset, applies migrations, builds the web app
// when no build exists yet (saying every 30 s that it still runs), runs it, and
// says when it is ready (/readyz answers). One stop request (server/lifecycle.ts)
// drains the server, then stops the database. `--dev` runs Next's development
// server instead of the build; `--api-only` runs without the web app's pages.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config } from '../lib/config.ts';
import { databaseUrl, ensureDatabase, startEmbeddedPostgres } from '../lib/db/embedded-postgres.ts';
import { migrate } from '../lib/db/migrate.ts';

// A self-hosted service reports nothing to third parties.
process.env.NEXT_TELEMETRY_DISABLED = '1';

const say = (msg: string) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg })}\n`);
const dev = process.argv.includes('--dev');
// The API, sites and sockets without the web app's pages: no build needed.
const apiOnly = process.argv.includes('--api-only');
const root = path.resolve(import.meta.dirname, '..');

// lib/config.ts validates the environment as it loads: a bad value is
// reported as one plain message, not a stack trace.
let config: Config;
try {
  ({ config } = await import('../lib/config.ts'));
} catch (error) {
  if ((error as Error).name !== 'ConfigError') throw error;
  console.error((error as Error).message);
  process.exit(1);
}

let stopDatabase = async () => {};
let url = config.databaseUrl;
if (!url) {
  const server = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'postgres'), log: say });
  stopDatabase = server.stop;
  await ensureDatabase(server.serverUrl, 'atrium');
  url = databaseUrl(server.serverUrl, 'atrium');
  say('embedded PostgreSQL is running');
}

const { onStopRequest } = await import('../server/lifecycle.ts');
let child: ChildProcess | undefined;
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    // Closing the IPC channel asks the server to drain (under --dev, Node's watcher takes a signal instead).
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
    // A server killed by a signal did not stop cleanly.
    code = (await exited) ?? 1;
  }
  await stopDatabase();
  process.exit(code);
}
onStopRequest({
  drain: () => void shutdown(0),
  force() {
    child?.kill('SIGKILL');
    void stopDatabase().finally(() => process.exit(1));
  },
});

const BUILD_PROGRESS_MS = 30_000;

/** The first start's build, saying while it runs that it is still running (Next is silent for minutes). */
async function build(next: string) {
  say('no build found: building the web app, once; this takes a few minutes (run `npm run build` after updating)');
  const started = Date.now();
  const progress = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    say(`still building the web app: ${Math.floor(seconds / 60)} min ${seconds % 60} s so far`);
  }, BUILD_PROGRESS_MS);
  const builder = spawn(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit' });
  child = builder;
  const code = await new Promise<number | null>((resolve) => builder.once('exit', resolve));
  clearInterval(progress);
  child = undefined;
  if (code !== 0) throw new Error('The build failed.');
  say(`built the web app in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Says "ready" once the server answers /readyz, asking on loopback at the port it listens on. */
async function sayWhenReady(server: ChildProcess, port: number) {
  const loopback: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };
  const host = loopback[config.host] ?? config.host;
  const readyz = `http://${host.includes(':') ? `[${host}]` : host}:${port}/readyz`;
  while (server.exitCode === null && server.signalCode === null && !stopping) {
    const ready = await fetch(readyz, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready && server.exitCode === null && !stopping) return say(`Atrium is ready on ${config.publicUrl}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

try {
  const applied = await migrate(url);
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');

  const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
  if (!dev && !apiOnly && !existsSync(path.join(root, '.next', 'BUILD_ID'))) await build(next);
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: dev ? 'development' : 'production',
    PORT: String(config.port),
    HOST: config.host,
  } as NodeJS.ProcessEnv;
  // Under --dev, Node restarts the server when an API or domain module changes (Next reloads pages itself).
  const args = dev ? ['--watch', path.join(root, 'server/main.ts'), '--dev'] : [path.join(root, 'server/main.ts'), ...(apiOnly ? ['--api-only'] : [])];
  // The IPC channel tells the server when this process stops or is gone, whatever the signal reached.
  const server = spawn(process.execPath, args, { cwd: root, stdio: ['inherit', 'inherit', 'inherit', dev ? 'ignore' : 'ipc'], env });
  child = server;
  say(`Atrium is starting on ${config.publicUrl}`);
  server.on('exit', (code) => void shutdown(code ?? 1));
  // The server names its port on the IPC channel once it listens, so that another process on the
  // port is never taken for it; under --dev there is no channel, and the port is asked from the start.
  if (dev) void sayWhenReady(server, config.port);
  else server.on('message', (message: { listening?: number }) => void (message.listening && sayWhenReady(server, message.listening)));
} catch (error) {
  // A build stopped by a stop request has not failed.
  if (!stopping) console.error((error as Error).message);
  await shutdown(1);
}
