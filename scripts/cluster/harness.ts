// A whole Atrium cluster on one machine, as an operator would run it on many:
// web nodes (`server/main.ts`, the production build), realtime nodes
// (`server/realtime-main.ts`), one PostgreSQL, Redis, an S3-protocol server for the
// blobs (s3rver, the stand-in for any S3-compatible store), and HAProxy in
// front. `npm run cluster` starts one for people to try; the cluster test
// (test/cluster/) starts one to publish, read, edit, kill and restart through.
//
// It installs nothing: HAProxy and (without REDIS_URL) `redis-server` must be
// on the PATH, and the web app must be built (`npm run build`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../lib/db/embedded-postgres.ts';
import { s3Env, startS3StandIn, type S3StandIn } from '../s3-stand-in.ts';
import { DRAIN_NOTICE_SECONDS, haproxyConfig } from './haproxy.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Something the machine lacks; the message says how to get it. */
export class ClusterSetupError extends Error {
  name = 'ClusterSetupError';
}

export type NodeKind = 'web' | 'realtime';

export type ClusterNode = {
  name: string;
  kind: NodeKind;
  port: number;
  /** The node itself, bypassing the load balancer. */
  origin: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Starts the process (again) on the same port and waits until /readyz says so. */
  start(): Promise<void>;
  /** Sends `signal` and waits for the process to exit; resolves with its exit code. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
};

export type ClusterOptions = {
  /** Where logs, the HAProxy configuration and (without S3) the blobs go. */
  dataDir: string;
  /** An existing, migrated database; the caller owns it. */
  databaseUrl: string;
  /** A Redis the nodes share; without it `redis-server` is started on a free port. */
  redisUrl?: string;
  /** A bucket the nodes share, owned by the caller (who may stop and start it); without it an S3 stand-in is started. */
  s3?: S3StandIn;
  webNodes?: number;
  realtimeNodes?: number;
  /** The load balancer's port (default: a free one). */
  port?: number;
  /** More environment for every node (e.g. DEV_AUTH for tests). */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

export type Cluster = {
  /** The load balancer: what people and clients use. */
  origin: string;
  web: ClusterNode[];
  realtime: ClusterNode[];
  redisUrl: string;
  /** Where the S3 stand-in keeps the bucket's objects on disk (for tests that look). */
  s3Directory: string;
  /** Stops every process (nodes with SIGTERM, so they drain). */
  stop(): Promise<void>;
};

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Throws ClusterSetupError naming what is missing and how to get it. */
export function checkPrerequisites(options: { redisUrl?: string }): void {
  const missing: string[] = [];
  if (!onPath('haproxy')) missing.push('HAProxy (Debian/Ubuntu: apt-get install haproxy; macOS: brew install haproxy)');
  if (!options.redisUrl && !onPath('redis-server')) missing.push('Redis: set REDIS_URL, or put redis-server on the PATH (apt-get install redis-server; brew install redis)');
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) missing.push('a build of the web app: run `npm run build`');
  if (missing.length) throw new ClusterSetupError(`The cluster needs:\n  ${missing.join('\n  ')}`);
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, output: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.\n${output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ready = (origin: string) => async () => (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200;

/** A supervised process: started, killed and started again under one name, its output appended to a log file. */
function processNode(name: string, kind: NodeKind, port: number, command: string[], env: Record<string, string>, logDir: string, log: (line: string) => void): ClusterNode {
  let child: ChildProcess | null = null;
  let recent = '';
  const logFile = path.join(logDir, `${name}.log`);
  const node: ClusterNode = {
    name,
    kind,
    port,
    origin: `http://127.0.0.1:${port}`,
    get pid() {
      return child?.pid;
    },
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      if (node.running) return;
      const out = createWriteStream(logFile, { flags: 'a' });
      child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      for (const stream of [child.stdout!, child.stderr!]) {
        stream.on('data', (chunk: Buffer) => {
          recent = (recent + chunk.toString('utf8')).slice(-8000);
          out.write(chunk);
        });
      }
      child.once('exit', () => out.end());
      await waitUntil(`${name} to be ready`, ready(node.origin), 60_000, () => recent);
      log(`${name} ready on ${node.origin} (pid ${child.pid})`);
    },
    async kill(signal = 'SIGTERM') {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return running?.exitCode ?? null;
      const exited = new Promise<number | null>((resolve) => running.once('exit', (code) => resolve(code)));
      running.kill(signal);
      return exited;
    },
  };
  return node;
}

/** `redis-server` on `port` (default a free one), without persistence; `stop` waits for it to exit. */
export async function startRedis(dataDir: string, log: (line: string) => void, port?: number): Promise<{ url: string; stop: () => Promise<void> }> {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataDir], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  await waitUntil('Redis to start', async () => {
    const { Redis } = await import('ioredis');
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused until the server listens: connect() rejects, and the event must not print as unhandled.
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  }, 10_000);
  log(`redis on ${url}`);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {});
  checkPrerequisites(options);
  const dataDir = path.resolve(options.dataDir);
  const logDir = path.join(dataDir, 'logs');
  await mkdir(logDir, { recursive: true });

  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
  };
  try {
    let redisUrl = options.redisUrl;
    if (!redisUrl) {
      const redis = await startRedis(dataDir, log);
      stops.push(redis.stop);
      redisUrl = redis.url;
    }
    // The blobs in a bucket every node reaches over S3, never on one node's disk.
    let s3 = options.s3;
    if (!s3) {
      s3 = await startS3StandIn('atrium-cluster', path.join(dataDir, 's3'));
      stops.push(s3.close);
    }
    log(`S3 stand-in on ${s3.config.endpoint}, bucket ${s3.config.bucket}`);
    // A port is free only until someone takes it, and HAProxy binds with
    // SO_REUSEPORT: a node given the balancer's port would silently share it.
    // So no two of the cluster's ports are the same.
    const taken = new Set<number>();
    const distinctPort = async (): Promise<number> => {
      for (;;) {
        const port = await freePort();
        if (taken.has(port)) continue;
        taken.add(port);
        return port;
      }
    };
    const lbPort = options.port ?? (await distinctPort());
    taken.add(lbPort);
    const origin = `http://localhost:${lbPort}`;
    // What every node shares: the database, Redis, the blob store, the secret
    // of web sign-in, and the address people use (the load balancer's).
    const common: Record<string, string> = {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      ...s3Env(s3.config),
      PUBLIC_URL: origin,
      AUTH_SECRET: randomBytes(33).toString('base64'),
      TRUST_PROXY: 'true',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      HOST: '127.0.0.1',
      // Until HAProxy has stopped sending to a draining node.
      DRAIN_NOTICE_SECONDS: String(DRAIN_NOTICE_SECONDS),
      ...options.env,
    };
    const web: ClusterNode[] = [];
    for (let i = 1; i <= (options.webNodes ?? 3); i++) {
      const port = await distinctPort();
      web.push(processNode(`web-${i}`, 'web', port, [path.join(root, 'server/main.ts')], { ...common, PORT: String(port), NODE_ID: `web-${i}` }, logDir, log));
    }
    const realtime: ClusterNode[] = [];
    for (let i = 1; i <= (options.realtimeNodes ?? 2); i++) {
      const port = await distinctPort();
      realtime.push(processNode(`rt-${i}`, 'realtime', port, [path.join(root, 'server/realtime-main.ts')], { ...common, REALTIME_PORT: String(port), NODE_ID: `rt-${i}` }, logDir, log));
    }
    const nodes = [...web, ...realtime];
    stops.push(() => Promise.all(nodes.map((node) => node.kill('SIGTERM'))));

    // The balancer first, so that its port is held from now on: HAProxy binds
    // with SO_REUSEPORT, and a process that took the port before it (another
    // test's server) would silently share its connections.
    const configFile = path.join(dataDir, 'haproxy.cfg');
    await writeFile(configFile, haproxyConfig({ port: lbPort, web, realtime }));
    const haproxy = spawn('haproxy', ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let haproxyOutput = '';
    for (const stream of [haproxy.stdout!, haproxy.stderr!]) stream.on('data', (c: Buffer) => (haproxyOutput = (haproxyOutput + c).slice(-8000)));
    stops.push(async () => {
      if (haproxy.exitCode !== null) return;
      const exited = new Promise((resolve) => haproxy.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await exited;
    });
    await Promise.all(nodes.map((node) => node.start()));
    await waitUntil('HAProxy to route to a ready node', ready(origin), 20_000, () => haproxyOutput);
    log(`load balancer on ${origin}`);
    return { origin, web, realtime, redisUrl, s3Directory: s3.directory, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
