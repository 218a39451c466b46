// Benchmark "rooms": 1,000 clients across 100 rooms on one realtime node.
// Each room has one writer typing into its page and nine readers; the figure
// is the time from a keystroke until every other client of the room has it
// (p50, p99), the node's resident memory per open connection and its CPU time
// per edit.
//
// Atrium: a realtime node of the production build (`node --max-semi-space-size=8 server/realtime-main.ts`, as
// a cluster runs it) beside a web node that issues the tickets
// (`node scripts/start.ts` with REALTIME_URL), no Redis; rooms created through
// POST /v1/rooms, each client with a ticket from POST /v1/rooms/{id}/ticket.
// Baseline: bench/baseline-rooms.ts, a bare Yjs relay over `ws`.
// Both sides' clients do the same work per message (bench/room-client.ts for
// Atrium, a plain WebSocket for the relay): Yjs sync and updates, no awareness.
//
// All clients live in this process, so both servers pay the same client-side
// costs. Each room's writer sends a keystroke, waits until the room has it,
// pauses 100–300 ms, and again, for the whole measuring window; the rooms run
// at once (about 500 keystrokes a second in, 4,500 out).
//
// `npm run bench -- rooms-cluster`: 5,000 clients in 500 rooms over two
// realtime nodes sharing Redis, each room's clients split between the nodes
// (figures only: no baseline runs so many).
//
// Results: a table on stdout and .atrium/bench/results-rooms.json (or -rooms-cluster.json).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as Y from 'yjs';
import { createClient } from '../lib/client/index.ts';
import { roomsApi } from '../lib/schemas/rooms.ts';
import { workspacesApi } from '../lib/schemas/workspaces.ts';
import type { BenchContext } from './run.ts';
import { connectRoom } from './room-client.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, startServerProcess, treeCpuSeconds, workDir } from './server.ts';

// settle: wait for the servers' memory to settle before and after connecting (not worth it in a smoke run).
const FULL = { rooms: 100, perRoom: 10, seconds: 15, settle: true };
const QUICK = { rooms: 10, perRoom: 10, seconds: 3, settle: true };
const SMOKE = { rooms: 2, perRoom: 2, seconds: 1, settle: false };
const CLUSTER = { rooms: 500, perRoom: 10, seconds: 15, settle: true };
const EDIT_TIMEOUT_MS = 10_000;
/** node's flags for a realtime node, as `npm run realtime` (package.json) and docs/deploy.md start it. */
const REALTIME_NODE_FLAGS = ['--max-semi-space-size=8'];
const CONNECT_BATCH = 50;

type Client = { doc: Y.Doc; close(): void };
type Connector = (room: number, doc: Y.Doc, index: number) => Promise<Client>;

/** Resident memory of a process, in KB (Linux). */
function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) : 0;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (ms: number) => Math.round(ms * 10) / 10;

/** The text the writer types into: the first paragraph of the page's fragment. */
function textOf(fragment: Y.XmlFragment): Y.XmlText | null {
  const paragraph = fragment.length ? fragment.get(0) : null;
  if (!(paragraph instanceof Y.XmlElement)) return null;
  const text = paragraph.length ? paragraph.get(0) : null;
  return text instanceof Y.XmlText ? text : null;
}

type Result = { clients: number; rooms: number; edits: number; lost: number; p50: number; p99: number; max: number; rssBeforeMb: number; rssAfterMb: number; kbPerConnection: number; cpuMsPerEdit: number | null };

const rssOf = (pids: number[]) => pids.reduce((sum, pid) => sum + rssKb(pid), 0);
const cpuOf = (pids: number[]) => pids.reduce<number | null>((sum, pid) => (sum === null ? null : ((c) => (c === null ? null : sum + c))(treeCpuSeconds(pid))), 0);

/** Connects rooms × perRoom clients, measures memory, then types in every room at once for `seconds`. */
async function measure(label: string, serverPids: number[], { rooms, perRoom, seconds, settle }: typeof FULL, field: (room: number) => string, connector: Connector): Promise<Result> {
  // A warm-up room, left open: the first socket loads code (routes, Hocuspocus) and pools that 1,000 do not multiply.
  const warm = await Promise.all([connector(rooms, new Y.Doc(), 0), connector(rooms, new Y.Doc(), 1)]);
  if (settle) await sleep(2000);
  const before = rssOf(serverPids);
  const clients: Client[][] = Array.from({ length: rooms }, () => []);
  const slots = Array.from({ length: rooms * perRoom }, (_, i) => i % rooms);
  for (let i = 0; i < slots.length; i += CONNECT_BATCH) {
    await Promise.all(
      slots.slice(i, i + CONNECT_BATCH).map(async (room, j) => {
        clients[room].push(await connector(room, new Y.Doc(), i + j));
      }),
    );
  }
  if (settle) await sleep(3000);
  const after = rssOf(serverPids);
  const cpuBefore = cpuOf(serverPids);

  const latencies: number[] = [];
  let lost = 0;
  const deadline = Date.now() + seconds * 1000;

  await Promise.all(
    clients.map(async (members, room) => {
      const [writer, ...readers] = members;
      const fragment = writer.doc.getXmlFragment(field(room));
      // A paragraph of our own at the top of the page, so every edit types into known text.
      writer.doc.transact(() => {
        const paragraph = new Y.XmlElement('paragraph');
        paragraph.insert(0, [new Y.XmlText('b')]);
        fragment.insert(0, [paragraph]);
      });
      const lengthOf = (client: Client) => textOf(client.doc.getXmlFragment(field(room)))?.length ?? 0;
      const reached = async (expected: number) => {
        const t0 = performance.now();
        const waiting = new Set(readers.filter((r) => lengthOf(r) < expected));
        if (!waiting.size) return 0;
        return new Promise<number | null>((resolve) => {
          const listeners = new Map<Client, () => void>();
          const done = (value: number | null) => {
            clearTimeout(timer);
            for (const [client, listener] of listeners) client.doc.off('update', listener);
            resolve(value);
          };
          const timer = setTimeout(() => done(null), EDIT_TIMEOUT_MS);
          for (const reader of waiting) {
            const listener = () => {
              if (lengthOf(reader) >= expected && waiting.delete(reader) && !waiting.size) done(performance.now() - t0);
            };
            listeners.set(reader, listener);
            reader.doc.on('update', listener);
          }
        });
      };
      // Everyone has the paragraph before the clock starts.
      if ((await reached(1)) === null) throw new Error(`${label}: room ${room} never shared its first paragraph`);
      await sleep(Math.random() * 300);
      while (Date.now() < deadline) {
        const text = textOf(fragment)!;
        const expected = text.length + 1;
        const wait = reached(expected);
        text.insert(text.length, 'x');
        const ms = await wait;
        if (ms === null) lost += 1;
        else latencies.push(ms);
        await sleep(100 + Math.random() * 200);
      }
    }),
  );

  const cpuAfter = cpuOf(serverPids);
  for (const client of [...clients.flat(), ...warm]) client.close();
  await sleep(500);
  latencies.sort((a, b) => a - b);
  const result: Result = {
    clients: rooms * perRoom,
    rooms,
    edits: latencies.length,
    lost,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
    rssBeforeMb: Math.round(before / 1024),
    rssAfterMb: Math.round(after / 1024),
    kbPerConnection: Math.round(((after - before) / (rooms * perRoom)) * 10) / 10,
    cpuMsPerEdit: cpuBefore === null || cpuAfter === null || !latencies.length ? null : Math.round(((cpuAfter - cpuBefore) * 1000 * 1000) / latencies.length) / 1000,
  };
  console.log(
    `${label.padEnd(10)} ${result.clients} clients / ${rooms} rooms  ${result.edits} edits (${lost} lost)  p50 ${result.p50} ms  p99 ${result.p99} ms  max ${result.max} ms  RSS ${result.rssBeforeMb} → ${result.rssAfterMb} MB  ${result.kbPerConnection} KB/connection  ${result.cpuMsPerEdit} ms CPU/edit`,
  );
  return result;
}

/** Rooms of one workspace, made through the API of `base`; one more than measured, for the warm-up. */
async function makeRooms(base: string, count: number) {
  const token = await devToken(base, 'bench-rooms');
  const api = createClient({ baseUrl: base, token, retries: 2 });
  await api.call(workspacesApi.create, { body: { slug: 'bench-team', name: 'Bench rooms' } });
  const ids: string[] = [];
  for (let i = 0; i <= count; i++) ids.push((await api.call(roomsApi.create, { body: { workspace: 'bench-team', name: `Room ${i + 1}`, template: 'blank' } })).id);
  const pageIds: string[] = [];
  /** Connects to the node its ticket names; `origin` overrides it (a second node). */
  const connector =
    (origins: ((index: number) => string | null) = () => null): Connector =>
    async (room, doc, index) => {
      const { url } = await api.call(roomsApi.ticket, { params: { id: ids[room] } });
      const other = origins(index);
      const target = other ? `${other.replace(/^http/, 'ws')}${new URL(url).pathname}${new URL(url).search}` : url;
      const client = await connectRoom(target, ids[room], doc);
      if (!pageIds[room]) pageIds[room] = String(doc.getArray<Y.Map<string>>('pages').get(0).get('id'));
      return client;
    };
  return { connector, field: (room: number) => `page:${pageIds[room]}` };
}

function printTable(rows: [string, Result][]) {
  console.log('\n| server | clients | rooms | edits | lost | p50 ms | p99 ms | max ms | server RSS (MB) | KB per connection | CPU ms per edit |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of rows) console.log(`| ${name} | ${r.clients} | ${r.rooms} | ${r.edits} | ${r.lost} | ${r.p50} | ${r.p99} | ${r.max} | ${r.rssBeforeMb} → ${r.rssAfterMb} | ${r.kbPerConnection} | ${r.cpuMsPerEdit} |`);
}

async function save(name: string, quick: boolean, kind: string, results: object) {
  const file = path.join(workDir, `results-${name}.json`);
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), quick, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, database: kind, ...results }, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(root, file)}`);
}

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const shape = smoke ? SMOKE : quick ? QUICK : FULL;
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const database = await benchDatabase('rooms', onStop);
  // A realtime node alone, as a cluster runs it, and a web node whose tickets name it. No Redis: one node.
  const realtime = await startServerProcess('atrium-realtime', 'server/realtime-main.ts', onStop, { DATABASE_URL: database.url, LOG_REQUESTS: 'false', REDIS_URL: undefined }, 'REALTIME_PORT', REALTIME_NODE_FLAGS);
  const atrium = await startAtriumProcess('atrium-rooms', database.url, onStop, { REALTIME_URL: realtime.base, REDIS_URL: undefined });
  const relay = await startServerProcess('baseline-rooms', 'bench/baseline-rooms.ts', onStop, {});
  const rooms = await makeRooms(atrium.base, shape.rooms);

  const bare: Connector = (room, doc) =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(`${relay.base.replace(/^http/, 'ws')}/room-${room}`);
      socket.binaryType = 'arraybuffer';
      const timer = setTimeout(() => reject(new Error(`relay room ${room}: no state within 30 s`)), 30_000);
      const send = (update: Uint8Array, origin: unknown) => {
        if (origin !== socket && socket.readyState === WebSocket.OPEN) socket.send(update as Uint8Array<ArrayBuffer>);
      };
      socket.onmessage = (event) => {
        Y.applyUpdate(doc, new Uint8Array(event.data as ArrayBuffer), socket);
        clearTimeout(timer);
        resolve({ doc, close: () => socket.close() });
      };
      socket.onerror = () => reject(new Error(`relay room ${room}: socket error`));
      doc.on('update', send);
    });

  const results = {
    atrium: await measure('Atrium', [realtime.pid], shape, rooms.field, rooms.connector()),
    baseline: await measure('ws relay', [relay.pid], shape, () => 'page:bench', bare),
  };
  printTable([
    ['Atrium', results.atrium],
    ['ws relay', results.baseline],
  ]);
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  console.log(`\nratios: p99 ${ratio(results.atrium.p99, results.baseline.p99)}x, memory per connection ${ratio(results.atrium.kbPerConnection, results.baseline.kbPerConnection)}x (targets 1.5x)`);
  await save('rooms', quick, database.kind, results);
}

/** `npm run bench -- rooms-cluster`: two realtime nodes over Redis, each room's clients on both. */
export async function runCluster({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const shape = smoke ? SMOKE : quick ? QUICK : CLUSTER;
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const reachable = await new Promise<boolean>((resolve) => {
    const url = new URL(redisUrl);
    const socket = connect(Number(url.port || 6379), url.hostname, () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
  if (!reachable) return console.log(`rooms-cluster: skipped, no Redis at ${redisUrl} (set REDIS_URL).`);
  const database = await benchDatabase('rooms-cluster', onStop);
  const node = (name: string) => startServerProcess(name, 'server/realtime-main.ts', onStop, { DATABASE_URL: database.url, LOG_REQUESTS: 'false', REDIS_URL: redisUrl, REALTIME_NAME: name, ROOM_MAX_CONNECTIONS: '1000' }, 'REALTIME_PORT', REALTIME_NODE_FLAGS);
  const one = await node('atrium-realtime-1');
  const two = await node('atrium-realtime-2');
  const atrium = await startAtriumProcess('atrium-rooms-cluster', database.url, onStop, { REALTIME_URL: one.base, REDIS_URL: redisUrl });
  const rooms = await makeRooms(atrium.base, shape.rooms);
  // Every other client connects to the second node: each edit crosses Redis to half its room.
  const result = await measure('Atrium ×2', [one.pid, two.pid], shape, rooms.field, rooms.connector((index) => (index % 2 ? two.base : null)));
  printTable([['Atrium, 2 nodes + Redis', result]]);
  await save('rooms-cluster', quick, database.kind, { atrium: result });
}
