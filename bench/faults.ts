// Benchmark "faults": a cluster (scripts/cluster/harness.ts: three web nodes
// of the production build, two realtime nodes, HAProxy) on a PostgreSQL,
// Redis and S3 stand-in of its own, so that it can stop and start them, under
// a steady mixed load through the balancer, while one fault after another is
// injected: SIGKILL of a web node, a web node drained by SIGTERM, PostgreSQL
// restarted, Redis stopped for 10 s, the S3 stand-in stopped for 10 s. It
// counts the requests each fault failed (by route and status) and how long
// the cluster took to recover, and at the end looks for every acknowledged
// space-database write and checks every node's cache file of the space.
// Figures, not ratios: there is no baseline. `--smoke` runs one fault.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import * as Y from 'yjs';
import { databaseUrl, dropDatabase, ensureDatabase, freePort, startEmbeddedPostgres } from '../lib/db/embedded-postgres.ts';
import { migrate } from '../lib/db/migrate.ts';
import { checkPrerequisites, ClusterSetupError, startCluster, startRedis, type ClusterNode } from '../scripts/cluster/harness.ts';
import { startS3StandIn } from '../scripts/s3-stand-in.ts';
import { connectRoom, type RoomClient } from './room-client.ts';
import type { BenchContext } from './run.ts';
import { devToken, root, workDir } from './server.ts';

/** How long Redis and the blob store stay down. */
const OUTAGE_MS = 10_000;
/** A fault has passed once this long has gone by without a failed request. */
const QUIET_MS = 3_000;
const HTTP_CLIENTS = 12;
/** A socket edit not seen by the other editor within this long counts as failed, and both reconnect. */
const EDIT_TIMEOUT_MS = 10_000;

/** An HTTP status, `network: <code>` when no answer came (the socket's error code), or `timeout` for an edit never seen. */
type Status = number | `network: ${string}` | 'timeout';
/** `message`: the error envelope's message of an answer that failed. */
type Outcome = { route: string; started: number; ended: number; status: Status; message?: string };
type Answer = { status: Status; text?: string };
const ok = (status: Status) => typeof status === 'number' && status < 400;

type Fault = { name: string; inject(): Promise<void> };
type Phase = { name: string; start: number; cleared: number; end: number };

export async function run({ smoke, onStop }: BenchContext): Promise<void> {
  try {
    checkPrerequisites({});
  } catch (error) {
    // As the cluster test does: a machine without HAProxy or Redis skips it, except in CI.
    if (error instanceof ClusterSetupError && smoke && !process.env.CI) {
      console.log(`Skipped. ${error.message}`);
      return;
    }
    throw error;
  }
  const dir = path.join(workDir, 'faults');
  const log = (line: string) => console.log(line);

  // PostgreSQL of its own (never DATABASE_URL's), on a port it keeps across a restart.
  const postgresDir = path.join(dir, 'postgres');
  const postgresPort = await freePort();
  let postgres = await startEmbeddedPostgres({ dataDir: postgresDir, port: postgresPort });
  onStop(() => postgres.stop());
  await dropDatabase(postgres.serverUrl, 'atrium_bench_faults');
  await ensureDatabase(postgres.serverUrl, 'atrium_bench_faults');
  const url = databaseUrl(postgres.serverUrl, 'atrium_bench_faults');
  await migrate(url);

  const clusterDir = path.join(dir, 'cluster');
  await rm(clusterDir, { recursive: true, force: true });
  await mkdir(clusterDir, { recursive: true });
  const redisPort = await freePort();
  let redis = await startRedis(clusterDir, log, redisPort);
  onStop(() => redis.stop());
  const s3Dir = path.join(clusterDir, 's3');
  const s3Port = await freePort();
  let s3 = await startS3StandIn('atrium-faults', s3Dir, s3Port);
  onStop(() => s3.close());
  const cluster = await startCluster({ dataDir: clusterDir, databaseUrl: url, redisUrl: redis.url, s3, env: { DEV_AUTH: 'true', LOG_REQUESTS: 'false' }, log });
  onStop(() => cluster.stop());
  const lb = cluster.origin;

  // A space with a file and a table, and a room, all through the balancer.
  const handle = 'bench-faults';
  const token = await devToken(lb, handle);
  const call = async (method: string, route: string, body?: unknown, raw?: Buffer) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (raw || body !== undefined) headers['content-type'] = raw ? 'application/octet-stream' : 'application/json';
    const response = await fetch(lb + route, { method, headers, body: raw ? new Uint8Array(raw) : body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  };
  const must = async (method: string, route: string, body?: unknown, raw?: Buffer) => {
    const answer = await call(method, route, body, raw);
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return answer.text ? answer.json() : null;
  };
  const space = await must('POST', '/v1/spaces', { workspace: handle, name: 'Faults' });
  const page = Buffer.from('<h1>Read through every fault</h1>\n');
  const file = { path: 'index.html', sha256: createHash('sha256').update(page).digest('hex'), size: page.length };
  await must('POST', `/v1/spaces/${space.id}/push/plan`, { files: [file] });
  await must('PUT', `/v1/spaces/${space.id}/blobs/${file.sha256}`, undefined, page);
  await must('POST', `/v1/spaces/${space.id}/versions`, { files: [file], message: 'Base' });
  const query = `/v1/spaces/${space.id}/db/query`;
  await must('POST', query, { sql: 'CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT UNIQUE)', write: true });
  const room = await must('POST', '/v1/rooms', { workspace: handle, name: 'Faults', template: 'blank' });

  const outcomes: Outcome[] = [];
  const acknowledged: string[] = [];
  let running = true;
  const timed = async (route: string, work: () => Promise<Answer>) => {
    const started = Date.now();
    const { status, text } = await work().catch((error: Error & { cause?: { code?: string; message?: string } }): Answer => ({ status: `network: ${error.cause?.code ?? error.cause?.message ?? error.name}` }));
    outcomes.push({ route, started, ended: Date.now(), status, message: ok(status) ? undefined : errorMessage(text) });
    return status;
  };

  let serial = 0;
  const requests: Array<{ route: string; send: () => Promise<Answer> }> = [
    { route: 'GET /v1/me', send: () => call('GET', '/v1/me') },
    { route: 'GET /v1/spaces/{id}', send: () => call('GET', `/v1/spaces/${space.id}`) },
    { route: 'GET /v1/spaces/{id}/files/{path}', send: () => call('GET', `/v1/spaces/${space.id}/files/index.html`) },
    {
      route: 'POST /v1/spaces/{id}/db/query (INSERT)',
      send: async () => {
        const tag = `tag-${++serial}`;
        const answer = await call('POST', query, { sql: 'INSERT INTO w (tag) VALUES (?)', params: [tag], write: true });
        if (answer.status === 200) acknowledged.push(tag);
        return answer;
      },
    },
  ];
  const httpClient = async (i: number) => {
    for (let n = i; running; n++) {
      const { route, send } = requests[n % requests.length];
      if (!ok(await timed(route, send))) await sleep(50);
    }
  };

  // Two editors of one room (with leastconn, one on each realtime node, so
  // that an edit crosses Redis): one types, and an edit counts once the other has it.
  const docs = [new Y.Doc(), new Y.Doc()];
  const editors: RoomClient[] = [];
  const connectEditor = async (doc: Y.Doc) => {
    const { url: ticketUrl } = await must('POST', `/v1/rooms/${room.id}/ticket`);
    return connectRoom(ticketUrl, room.id, doc, EDIT_TIMEOUT_MS);
  };
  for (const doc of docs) editors.push(await connectEditor(doc));
  const fieldName = `page:${docs[0].getArray<Y.Map<string>>('pages').get(0).get('id')}`;
  const textIn = (doc: Y.Doc): Y.XmlText | null => {
    const paragraph = doc.getXmlFragment(fieldName).get(0);
    return paragraph instanceof Y.XmlElement && paragraph.get(0) instanceof Y.XmlText ? (paragraph.get(0) as Y.XmlText) : null;
  };
  docs[0].transact(() => {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText('b')]);
    docs[0].getXmlFragment(fieldName).insert(0, [paragraph]);
  });
  let editsAcknowledged = 0;
  const seen = async (length: number) => {
    const deadline = Date.now() + EDIT_TIMEOUT_MS;
    while ((textIn(docs[1])?.length ?? 0) < length) {
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  };
  const editorLoop = async () => {
    if (!(await seen(1))) throw new Error('the second editor never saw the first paragraph');
    while (running) {
      const text = textIn(docs[0])!;
      const length = text.length + 1;
      const status = await timed('room socket edit', async () => {
        text.insert(text.length, 'x');
        return { status: (await seen(length)) ? 200 : 'timeout' };
      });
      if (status === 200) editsAcknowledged++;
      else {
        // Both sockets again, with fresh tickets; the documents keep their edits and sync them.
        for (const editor of editors.splice(0)) editor.close();
        while (running && editors.length < 2) {
          const connected = await timed('room socket connect', async () => {
            editors.push(await connectEditor(docs[editors.length]));
            return { status: 200 };
          });
          if (!ok(connected)) await sleep(500);
        }
      }
      await sleep(200);
    }
  };

  const web = cluster.web[1];
  const restart = async (node: ClusterNode, signal: NodeJS.Signals) => {
    const code = await node.kill(signal);
    if (signal === 'SIGTERM' && code !== 0) throw new Error(`${node.name} exited with ${code} after its drain`);
    await node.start();
  };
  const faults: Fault[] = [
    { name: `SIGKILL of ${web.name}, started again`, inject: () => restart(web, 'SIGKILL') },
    { name: `${web.name} drained by SIGTERM to server/main.ts, started again`, inject: () => restart(web, 'SIGTERM') },
    {
      name: 'PostgreSQL restarted (fast shutdown)',
      inject: async () => {
        await postgres.stop();
        postgres = await startEmbeddedPostgres({ dataDir: postgresDir, port: postgresPort });
      },
    },
    {
      name: `Redis stopped for ${OUTAGE_MS / 1000} s`,
      inject: async () => {
        await redis.stop();
        await sleep(OUTAGE_MS);
        redis = await startRedis(clusterDir, log, redisPort);
      },
    },
    {
      name: `S3 stand-in stopped for ${OUTAGE_MS / 1000} s`,
      inject: async () => {
        await s3.close();
        await sleep(OUTAGE_MS);
        s3 = await startS3StandIn('atrium-faults', s3Dir, s3Port);
      },
    },
  ];
  const selected = smoke ? faults.slice(0, 1) : faults;
  const quietMs = smoke ? 1_000 : QUIET_MS;

  const phases: Phase[] = [];
  const loops = [...Array.from({ length: smoke ? 4 : HTTP_CLIENTS }, (_, i) => httpClient(i)), editorLoop()];
  try {
    const steadyStart = Date.now();
    await sleep(smoke ? 1_000 : 5_000);
    phases.push({ name: 'no fault', start: steadyStart, cleared: steadyStart, end: Date.now() });
    for (const fault of selected) {
      const start = Date.now();
      log(`fault: ${fault.name}`);
      await fault.inject();
      const cleared = Date.now();
      // Until the load has run QUIET_MS without a failure since the fault cleared (at most a minute).
      for (;;) {
        await sleep(250);
        const lastFailure = outcomes.filter((o) => o.ended >= start && !ok(o.status)).reduce((latest, o) => Math.max(latest, o.ended), cleared);
        if (Date.now() - lastFailure >= quietMs || Date.now() - cleared > 60_000) break;
      }
      phases.push({ name: fault.name, start, cleared, end: Date.now() });
    }
  } finally {
    running = false;
    await Promise.all(loops);
    for (const editor of editors) editor.close();
  }

  // Every acknowledged tag, read back through the balancer a page at a time.
  const stored = new Set<string>();
  for (let after = 0; ; ) {
    const { rows } = await must('POST', query, { sql: 'SELECT id, tag FROM w WHERE id > ? ORDER BY id LIMIT 5000', params: [after], write: false });
    if (!rows.length) break;
    for (const [id, tag] of rows as [number, string][]) {
      stored.add(tag);
      after = id;
    }
  }
  const lostWrites = acknowledged.filter((tag) => !stored.has(tag));
  const checks = cacheFiles(clusterDir, space.id).map((cacheFile) => quickCheck(cacheFile));

  const rows = phases.map((phase) => summarize(phase, outcomes));
  console.log('\n| fault | down for | requests | failed | failed requests (status × count, route) | HTTP failures from the fault\'s start | first success after it cleared |');
  console.log('|---|---:|---:|---:|---|---:|---:|');
  for (const r of rows) {
    const span = r.httpFailureSpanMs ? `${seconds(r.httpFailureSpanMs[0])} – ${seconds(r.httpFailureSpanMs[1])}` : '';
    console.log(`| ${r.name} | ${r.downMs ? seconds(r.downMs) : ''} | ${r.requests.toLocaleString('en')} | ${r.failed} | ${r.failures.join('; ')} | ${span} | ${r.firstSuccessMs === null ? '' : ms(r.firstSuccessMs)} |`);
  }
  for (const r of rows) for (const message of r.messages) console.log(`${r.name}: ${message}`);
  console.log(`\nspace-database writes acknowledged: ${acknowledged.length.toLocaleString('en')}, lost: ${lostWrites.length}`);
  console.log(`socket edits acknowledged: ${editsAcknowledged.toLocaleString('en')}`);
  console.log(`PRAGMA quick_check of the space's cache file on each node: ${checks.join(', ') || 'no file found'}`);

  const results = path.join(workDir, 'results-faults.json');
  await writeFile(results, `${JSON.stringify({ date: new Date().toISOString(), smoke, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, phases: rows, writesAcknowledged: acknowledged.length, lostWrites, editsAcknowledged, quickCheck: checks }, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(root, results)}; the nodes' logs are in ${path.relative(root, path.join(clusterDir, 'logs'))}`);
  if (lostWrites.length) throw new Error(`${lostWrites.length} acknowledged writes are missing, e.g. ${lostWrites.slice(0, 5).join(', ')}`);
  if (!checks.length || checks.some((check) => check !== 'ok')) throw new Error(`quick_check: ${checks.join(', ') || 'no cache file'}`);
}

/**
 * A phase's figures: requests that ended in it, those that failed by route
 * and status (with each distinct error message), when the failed HTTP
 * requests began and ended counted from the fault's start (a socket edit
 * fails only after EDIT_TIMEOUT_MS, which would say nothing of the cluster),
 * and the first success of a route that failed once the fault had cleared.
 */
function summarize(phase: Phase, outcomes: Outcome[]) {
  const inPhase = outcomes.filter((o) => o.ended >= phase.start && o.ended < phase.end);
  const failed = inPhase.filter((o) => !ok(o.status));
  const byKind = new Map<string, number>();
  for (const o of failed) byKind.set(`${o.status}\t${o.route}`, (byKind.get(`${o.status}\t${o.route}`) ?? 0) + 1);
  const failures = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, count]) => kind.replace('\t', ` × ${count}, `));
  const messages = [...new Set(failed.filter((o) => o.message).map((o) => `${o.status} ${o.route}: ${o.message}`))];
  const httpFailed = failed.filter((o) => !o.route.startsWith('room socket'));
  const failedRoutes = new Set(failed.map((o) => o.route));
  const successes = inPhase.filter((o) => failedRoutes.has(o.route) && ok(o.status) && o.ended >= phase.cleared).map((o) => o.ended);
  const first = (values: number[]) => values.reduce((a, b) => Math.min(a, b), Infinity);
  const last = (values: number[]) => values.reduce((a, b) => Math.max(a, b), -Infinity);
  return {
    name: phase.name,
    downMs: phase.cleared - phase.start,
    requests: inPhase.length,
    failed: failed.length,
    failures,
    messages,
    httpFailureSpanMs: httpFailed.length ? [first(httpFailed.map((o) => o.started)) - phase.start, last(httpFailed.map((o) => o.ended)) - phase.start] : null,
    firstSuccessMs: successes.length ? first(successes) - phase.cleared : null,
  };
}

/** The space's cache file in every node's folder (DATA_DIR/spacedb/cache-<pid>/<space>.<generation>.sqlite). */
function cacheFiles(dataDir: string, spaceId: string): string[] {
  const spacedb = path.join(dataDir, 'spacedb');
  return readdirSync(spacedb).flatMap((folder) =>
    readdirSync(path.join(spacedb, folder))
      .filter((entry) => entry.startsWith(`${spaceId}.`) && entry.endsWith('.sqlite'))
      .map((entry) => path.join(spacedb, folder, entry)),
  );
}

function quickCheck(file: string): string {
  const check = new DatabaseSync(file, { readOnly: true });
  try {
    return String((check.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check);
  } finally {
    check.close();
  }
}

/** The message of an error envelope ({"error": {"code", "message"}}), else the body's start. */
function errorMessage(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text).error.message;
  } catch {
    return text.slice(0, 200);
  }
}

const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
