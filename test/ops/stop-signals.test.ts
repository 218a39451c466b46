// A node runs as supervisors start it: `npm start` → sh → scripts/start.ts →
// server/main.ts (here with --api-only, so no Next build is needed). However
// the SIGTERM arrives (to npm alone, to the whole process group, to the server
// alone, once or twice), the request in flight finishes, /readyz says 503
// during the notice, and no process is left behind. A node that cannot listen
// exits non-zero, and so does the start script.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@/lib/db/embedded-postgres.ts';
import { devLogin } from '../process-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const npmCli = path.join(path.dirname(realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())), 'npm-cli.js');

type Chain = { npm: ChildProcess; origin: string; output(): string; exited: Promise<number | null> };
// Every process a test saw, killed after it, pass or fail (a failed drain may leave some).
const seen = new Set<number>();

/** `npm start -- --api-only` (or `npm run realtime`) in its own process group, on a free port. */
async function startChain(port?: number, waitFor = '"msg":"listening"', npmArgs = ['start', '--', '--api-only'], env: Record<string, string | undefined> = {}): Promise<Chain> {
  port ??= await freePort();
  const npm = spawn(process.execPath, [npmCli, ...npmArgs], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // npm's scripts run `node` from PATH: this test's Node 24.
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
      PORT: String(port),
      REALTIME_PORT: String(port),
      HOST: '127.0.0.1',
      DRAIN_NOTICE_SECONDS: '1',
      DRAIN_TIMEOUT_SECONDS: '30',
      NODE_ENV: 'production',
      ...env,
    },
  });
  seen.add(npm.pid!);
  let output = '';
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  await expect.poll(() => output.includes(waitFor) || npm.exitCode !== null, { timeout: 60_000, interval: 100 }).toBe(true);
  for (const pid of descendants(npm.pid!)) seen.add(pid);
  return { npm, origin: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** Every process under `pid`, by walking /proc (parents before children). */
function descendants(pid: number): number[] {
  const children = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const found: number[] = [];
  for (let queue = children(pid); queue.length; ) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...children(next));
  }
  return found;
}

/** Running, neither gone nor a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The script a `node` process runs (not the shell whose command line names it). */
// The first argument after node's own flags (`npm run realtime` passes one); a shell's `-c` is kept, so its command line never counts.
const scriptOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1).find((arg) => !arg.startsWith('--')) ?? '';

function chainProcesses(chain: Chain) {
  const all = [chain.npm.pid!, ...descendants(chain.npm.pid!)];
  const server = all.find((pid) => scriptOf(pid).endsWith('server/main.ts'));
  const start = all.find((pid) => scriptOf(pid).endsWith('scripts/start.ts'));
  expect(server, 'server/main.ts runs').toBeDefined();
  expect(start, 'scripts/start.ts runs').toBeDefined();
  return { all, server: server!, start: start! };
}

/** A POST whose body is sent in two halves: in flight until `finish()`. */
function slowPost(origin: string, token: string, slug: string) {
  const url = new URL(origin);
  const body = Buffer.from(JSON.stringify({ name: slug, slug }));
  let finish!: () => void;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path: '/v1/workspaces', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, body.length / 2));
    finish = () => req.end(body.subarray(body.length / 2));
  });
  return { answer, finish: () => finish() };
}

const refused = (origin: string) =>
  new Promise<boolean>((resolve) => {
    const url = new URL(origin);
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

const readyStatus = (origin: string) =>
  fetch(`${origin}/readyz`).then(
    (response) => response.status,
    () => 0,
  );

/** Sends the stop signal(s) with a request in flight; checks the drain and that nothing is left running. */
async function drainsWith(signal: (processes: ReturnType<typeof chainProcesses>, chain: Chain) => unknown, env: Record<string, string | undefined> = {}) {
  const chain = await startChain(undefined, undefined, undefined, env);
  const processes = chainProcesses(chain);
  // Signed in through the node: its database may be its own (the embedded one).
  const { token } = await devLogin(chain.origin, `drain${Math.floor(Math.random() * 1e6)}`);
  const slug = `in-flight-${processes.server}`;
  const slow = slowPost(chain.origin, token, slug);
  expect(await readyStatus(chain.origin)).toBe(200);
  await signal(processes, chain);
  // Not ready during the notice, whichever process heard the signal first.
  await expect.poll(() => readyStatus(chain.origin), { timeout: 10_000, interval: 50 }).toBe(503);
  // The request stays in flight past the notice, until the node takes no new connections.
  await expect.poll(() => refused(chain.origin), { timeout: 10_000, interval: 50 }).toBe(true);
  slow.finish();
  const answer = await slow.answer;
  expect(answer.status, chain.output()).toBe(200);
  expect(JSON.parse(answer.text).slug).toBe(slug);
  await expect.poll(() => processes.all.filter(running), { timeout: 30_000, interval: 100 }).toEqual([]);
  expect(chain.output()).not.toContain('stopping at once');
  return chain;
}

afterEach(() => {
  for (const pid of seen) {
    if (running(pid)) process.kill(pid, 'SIGKILL');
  }
  seen.clear();
});

describe('stopping a node the way supervisors do', { timeout: 120_000 }, () => {
  it('drains on SIGTERM to npm alone: npm exits at once, and the processes it leaves notice and drain', async () => {
    await drainsWith((_, chain) => process.kill(chain.npm.pid!, 'SIGTERM'));
  });

  it('lets the request in flight finish on Ctrl-C (SIGINT to the group) before it stops the embedded PostgreSQL', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-embedded-'));
    try {
      await drainsWith((_, chain) => process.kill(-chain.npm.pid!, 'SIGINT'), { DATABASE_URL: undefined, DATA_DIR: dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops a realtime node (npm run realtime) on SIGTERM to npm alone, leaving nothing behind', async () => {
    const chain = await startChain(undefined, 'realtime ready', ['run', 'realtime']);
    const all = [chain.npm.pid!, ...descendants(chain.npm.pid!)];
    expect(all.some((pid) => scriptOf(pid).endsWith('server/realtime-main.ts'))).toBe(true);
    process.kill(chain.npm.pid!, 'SIGTERM');
    await expect.poll(() => all.filter(running), { timeout: 30_000, interval: 100 }).toEqual([]);
    expect(chain.output()).toContain('"reason":"parent process exited"');
  });

  it('drains once on SIGTERM to the whole process group (systemd, Ctrl-C), though the server hears it twice', async () => {
    const chain = await drainsWith((_, chain) => process.kill(-chain.npm.pid!, 'SIGTERM'));
    expect(chain.output()).not.toContain('already draining');
  });

  it('drains once when the server hears the stop from its parent and then from the supervisor (a group signal, in the order that cut it)', async () => {
    await drainsWith(async ({ start, server }, chain) => {
      process.kill(start, 'SIGTERM');
      await expect.poll(() => readyStatus(chain.origin), { timeout: 10_000, interval: 50 }).toBe(503);
      process.kill(server, 'SIGTERM');
    });
  });

  it('drains on SIGTERM to the server process alone, and a second signal does not cut it short', async () => {
    const chain = await drainsWith(async ({ server }, chain) => {
      process.kill(server, 'SIGTERM');
      // Signals sent back to back arrive as one: the second once the first was heard.
      await expect.poll(() => readyStatus(chain.origin), { timeout: 10_000, interval: 50 }).toBe(503);
      process.kill(server, 'SIGTERM');
    });
    expect(chain.output()).toContain('already draining');
  });

  it('drains on SIGTERM to scripts/start.ts alone', async () => {
    await drainsWith(({ start }) => process.kill(start, 'SIGTERM'));
  });

  it('exits when its start script is killed outright (SIGKILL), even while it is still starting', async () => {
    const chain = await startChain(undefined, 'Atrium is starting');
    let server: number | undefined;
    await expect.poll(() => (server = descendants(chain.npm.pid!).find((pid) => scriptOf(pid).endsWith('server/main.ts'))), { timeout: 30_000, interval: 10 }).toBeDefined();
    const start = descendants(chain.npm.pid!).find((pid) => scriptOf(pid).endsWith('scripts/start.ts'))!;
    process.kill(start, 'SIGKILL');
    await expect.poll(() => running(server!), { timeout: 30_000, interval: 100 }).toBe(false);
    expect(chain.output()).toContain('"reason":"parent closed the channel"');
  });

  it('stops at once on a third signal, and says so', async () => {
    const chain = await startChain();
    const { server } = chainProcesses(chain);
    // --api-only: the web app's pages are not there.
    const page = await fetch(`${chain.origin}/settings`);
    expect(page.status).toBe(404);
    expect((await page.json()).error.code).toBe('not_found');
    process.kill(server, 'SIGTERM');
    await expect.poll(() => readyStatus(chain.origin), { timeout: 10_000, interval: 50 }).toBe(503);
    process.kill(server, 'SIGTERM');
    await expect.poll(() => chain.output(), { timeout: 10_000, interval: 50 }).toContain('already draining');
    process.kill(server, 'SIGTERM');
    expect(await chain.exited).not.toBe(0);
    expect(chain.output()).toContain('stopping at once without finishing the drain');
  });

  it('says once that it is ready, with the address to open, when /readyz answers', async () => {
    const chain = await startChain(undefined, 'Atrium is ready on');
    const { all } = chainProcesses(chain);
    expect(await readyStatus(chain.origin)).toBe(200);
    const lines = chain.output().split('\n');
    const ready = lines.filter((line) => line.includes('Atrium is ready'));
    expect(ready).toHaveLength(1);
    const starting = JSON.parse(lines.find((line) => line.includes('Atrium is starting on'))!).msg as string;
    expect(JSON.parse(ready[0]).msg).toBe(starting.replace('starting', 'ready'));
    expect(lines.indexOf(ready[0])).toBeGreaterThan(lines.findIndex((line) => line.includes('"msg":"listening"')));
    process.kill(chain.npm.pid!, 'SIGTERM');
    await expect.poll(() => all.filter(running), { timeout: 30_000, interval: 100 }).toEqual([]);
  });

  it('exits non-zero with one line when the port is taken, and so does the start script', async () => {
    // Taken by another server that answers /readyz: its answer is not this node being ready.
    const taken = createServer((_, response) => response.end('{"ready":true}'));
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const chain = await startChain(port, 'cannot listen');
      expect(await chain.exited).not.toBe(0);
      const lines = chain.output().split('\n').filter((line) => line.includes('cannot listen'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(chain.output()).not.toContain('uncaughtException');
      expect(chain.output()).not.toContain('Atrium is ready');
    } finally {
      taken.close();
    }
  });
});
