// Benchmark "load": many clients at once on the production server, doing
// what people do: reading their account and spaces, pushing small changes to
// their own space and to one shared by all, and joining and leaving a shared
// workspace. It reports errors (any answer other than the one expected, and
// any socket error or timeout; there must be none), throughput, latency
// percentiles and the server's memory before and after. There is no bare
// baseline for such a mix, so it prints figures, not ratios.
//
//   npm run bench -- load [--seconds 60] [--clients 200]
//
// Results: a table on stdout and .atrium/bench/results-load.json; the
// server's output goes to .atrium/bench/atrium-load.log.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, workDir } from './server.ts';

const DEFAULTS = { seconds: 60, clients: 200 };
const QUICK = { seconds: 5, clients: 20 };
const SMOKE = { seconds: 2, clients: 4 };
/** A request that takes longer than this counts as an error. */
const REQUEST_TIMEOUT = 30_000;
/** How many clients are set up at once before the run. */
const SETUP_CONCURRENCY = 10;

type Kind = 'read' | 'push' | 'shared push' | 'member';
// What a client does next, by share of its turns.
const MIX: [Kind, number][] = [
  ['read', 0.6],
  ['push', 0.25],
  ['shared push', 0.08],
  ['member', 0.07],
];

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

class Stats {
  latencies: number[] = [];
  byKind = new Map<Kind, number[]>();
  errors = new Map<string, number>();
  record(kind: Kind, ms: number) {
    this.latencies.push(ms);
    let list = this.byKind.get(kind);
    if (!list) this.byKind.set(kind, (list = []));
    list.push(ms);
  }
  error(what: string) {
    this.errors.set(what, (this.errors.get(what) ?? 0) + 1);
  }
  get errorCount() {
    return [...this.errors.values()].reduce((a, b) => a + b, 0);
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Resident memory of `pid` and of its descendants, in MB (Linux; null elsewhere). */
function treeRss(pid: number): { server: number; total: number } | null {
  try {
    const parents = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // The command name is in parentheses and may hold spaces; the ppid follows it.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // gone meanwhile
      }
    }
    const tree = [pid];
    for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
    const rss = (p: number) => {
      const line = readFileSync(`/proc/${p}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
      return line ? Number(line[1]) / 1024 : 0;
    };
    // The process that serves is the launcher's child (scripts/start.ts spawns server/main.ts).
    const server = tree.length > 1 ? tree[1] : pid;
    return { server: Math.round(rss(server)), total: Math.round(tree.reduce((sum, p) => sum + rss(p), 0)) };
  } catch {
    return null;
  }
}

export async function run({ quick, smoke, seconds: secondsFlag, clients: clientsFlag, onStop }: BenchContext): Promise<void> {
  const shape = smoke ? SMOKE : quick ? QUICK : DEFAULTS;
  const seconds = secondsFlag ?? shape.seconds;
  const clientCount = clientsFlag ?? shape.clients;
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const database = await benchDatabase('load', onStop);
  const { base, pid } = await startAtriumProcess('atrium-load', database.url, onStop);
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  onStop(() => sql.end());

  const stats = new Stats();
  let measuring = false;

  /** One request; anything but `expected` (or a socket error) is counted as an error and thrown. */
  async function call(kind: Kind, token: string, method: string, route: string, url: string, expected: number, body?: unknown, raw?: Uint8Array): Promise<any> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(base + url, {
        method,
        headers,
        body: body !== undefined ? JSON.stringify(body) : (raw as BodyInit | undefined),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      if (measuring) stats.error(`${method} ${route}: ${cause}`);
      throw new Error(`${method} ${url}: ${cause}`);
    }
    if (measuring) stats.record(kind, performance.now() - started);
    if (response.status !== expected) {
      if (measuring) stats.error(`${method} ${route}: ${response.status}`);
      throw new Error(`${method} ${url} answered ${response.status}, expected ${expected}: ${text.slice(0, 300)}`);
    }
    return text ? JSON.parse(text) : undefined;
  }

  async function push(kind: Kind, token: string, spaceId: string, files: Record<string, Uint8Array>) {
    const list = Object.entries(files).map(([p, bytes]) => ({ path: p, sha256: sha(bytes), size: bytes.byteLength }));
    const plan = await call(kind, token, 'POST', 'push/plan', `/v1/spaces/${spaceId}/push/plan`, 200, { files: list });
    const byHash = new Map(Object.values(files).map((bytes) => [sha(bytes), bytes]));
    await Promise.all((plan.missing as string[]).map((hash) => call(kind, token, 'PUT', 'blobs', `/v1/spaces/${spaceId}/blobs/${hash}`, 204, undefined, byHash.get(hash))));
    await call(kind, token, 'POST', 'versions', `/v1/spaces/${spaceId}/versions`, 200, { files: list });
  }
  /** index.html and 0 to 2 more files, fresh bytes each time: 1 to 3 blobs to upload. */
  const smallSite = (tag: string) => {
    const files: Record<string, Uint8Array> = { 'index.html': new Uint8Array(randomBytes(200 + Math.floor(Math.random() * 2000))) };
    const extra = Math.floor(Math.random() * 3);
    for (let i = 0; i < extra; i++) files[`${tag}/file-${i}.bin`] = new Uint8Array(randomBytes(100 + Math.floor(Math.random() * 8000)));
    return files;
  };

  // Setup: an owner with a shared workspace (where everyone pushes to one
  // space) and a churn workspace (which clients join and leave); each client
  // with a pushed space of its own and a membership of the shared workspace.
  console.log(`setting up ${clientCount} clients...`);
  const ownerToken = await devToken(base, 'load-owner');
  for (const slug of ['load-shared', 'load-churn']) await call('member', ownerToken, 'POST', 'workspaces', '/v1/workspaces', 200, { slug, name: slug });
  // Seats: the free plan's 3 would refuse the clients; this measures load, not billing.
  await sql.query(`UPDATE "Workspace" SET plan = 'enterprise' WHERE slug IN ('load-shared', 'load-churn')`);
  const shared = (await call('read', ownerToken, 'POST', 'spaces', '/v1/spaces', 200, { workspace: 'load-shared', name: 'Shared' })).id as string;
  await push('shared push', ownerToken, shared, smallSite('owner'));

  type Client = { handle: string; token: string; space: string };
  const clients: Client[] = [];
  const pending = Array.from({ length: clientCount }, (_, i) => i);
  await Promise.all(
    Array.from({ length: SETUP_CONCURRENCY }, async () => {
      for (let i = pending.shift(); i !== undefined; i = pending.shift()) {
        const handle = `load-${i}`;
        const token = await devToken(base, handle);
        const space = (await call('read', token, 'POST', 'spaces', '/v1/spaces', 200, { workspace: handle, name: 'Mine' })).id as string;
        await call('member', ownerToken, 'POST', 'members', '/v1/workspaces/load-shared/members', 204, { handle });
        await call('member', token, 'POST', 'accept', '/v1/workspaces/load-shared/accept', 204);
        await push('push', token, space, smallSite(handle));
        clients.push({ handle, token, space });
      }
    }),
  );

  const memoryBefore = treeRss(pid);
  console.log(`running ${clientCount} clients for ${seconds} s...`);
  const deadline = performance.now() + seconds * 1000;
  measuring = true;
  const started = performance.now();

  const turn = async (client: Client) => {
    let pick = Math.random();
    const kind = MIX.find(([, share]) => (pick -= share) < 0)?.[0] ?? 'read';
    const { token, space, handle } = client;
    if (kind === 'read') {
      const reads: [string, string][] = [
        ['me', '/v1/me'],
        ['space', `/v1/spaces/${space}`],
        ['versions', `/v1/spaces/${space}/versions`],
        ['files', `/v1/spaces/${space}/files/index.html`],
        ['space', `/v1/spaces/${shared}`],
        ['versions', `/v1/spaces/${shared}/versions`],
      ];
      const [route, url] = reads[Math.floor(Math.random() * reads.length)];
      await call(kind, token, 'GET', route, url, 200);
    } else if (kind === 'push') {
      await push(kind, token, space, smallSite(handle));
    } else if (kind === 'shared push') {
      await push(kind, token, shared, smallSite(handle));
    } else {
      await call(kind, ownerToken, 'POST', 'members', '/v1/workspaces/load-churn/members', 204, { handle });
      await call(kind, token, 'POST', 'accept', '/v1/workspaces/load-churn/accept', 204);
      await call(kind, ownerToken, 'DELETE', 'members/{handle}', `/v1/workspaces/load-churn/members/${handle}`, 204);
    }
  };
  let firstFailure: string | undefined;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        try {
          await turn(client);
        } catch (error) {
          // Counted already; the client carries on, as a person would retry.
          firstFailure ??= (error as Error).message;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  measuring = false;
  const memoryAfter = treeRss(pid);

  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const summary = {
    requests: sorted.length,
    requestsPerSecond: Math.round(sorted.length / elapsed),
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    errors: stats.errorCount,
  };
  const kinds = MIX.map(([kind]) => {
    const list = [...(stats.byKind.get(kind) ?? [])].sort((a, b) => a - b);
    return { kind, requests: list.length, p50: round(percentile(list, 50)), p99: round(percentile(list, 99)) };
  });

  console.log(`\n${clientCount} clients, ${elapsed.toFixed(1)} s, ${database.kind} PostgreSQL\n`);
  console.log('| requests | req/s | p50 ms | p99 ms | errors | server RSS before → after (MB) |');
  console.log('|---:|---:|---:|---:|---:|---|');
  const rss = memoryBefore && memoryAfter ? `${memoryBefore.server} → ${memoryAfter.server}` : 'n/a';
  console.log(`| ${summary.requests} | ${summary.requestsPerSecond} | ${summary.p50} | ${summary.p99} | ${summary.errors} | ${rss} |`);
  console.log('\n| kind | requests | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const k of kinds) console.log(`| ${k.kind} | ${k.requests} | ${k.p50} | ${k.p99} |`);
  if (stats.errorCount) {
    console.log('\nerrors:');
    for (const [what, count] of [...stats.errors].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${what}`);
    console.log(`first: ${firstFailure}`);
  }

  const file = path.join(workDir, 'results-load.json');
  const report = {
    benchmark: 'load',
    date: new Date().toISOString(),
    seconds,
    clients: clientCount,
    machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
    database: database.kind,
    summary,
    kinds,
    errors: Object.fromEntries(stats.errors),
    memoryMB: { before: memoryBefore, after: memoryAfter },
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(root, file)}.`);
  if (stats.errorCount) throw new Error(`${stats.errorCount} of ${summary.requests} requests failed`);
}
