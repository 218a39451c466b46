// Benchmark "rooms": 1,000 clients across 100 rooms on one server process.
// Each room has one writer typing into its page and nine readers; the figure
// is the time from a keystroke until every other client of the room has it
// (p50, p99), and the server's resident memory per open connection.
//
// Atrium: the production server (`node scripts/start.ts`, the realtime server
// inside the front server, one process), clients through
// @hocuspocus/provider with a ticket each from POST /v1/rooms/{id}/ticket.
// Baseline: bench/baseline-rooms.ts, a bare Yjs relay over `ws`, with plain
// WebSocket clients doing the same edits in the same run.
//
// All clients live in this process, so both servers pay the same client-side
// costs. Each room's writer sends a keystroke, waits until the room has it,
// pauses 100–300 ms, and again, for the whole measuring window; the 100 rooms
// run at once (about 500 keystrokes a second in, 4,500 out).
//
// Results: a table on stdout and .atrium/bench/results-rooms.json.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { createClient } from '../lib/client/index.ts';
import { roomsApi } from '../lib/schemas/rooms.ts';
import { workspacesApi } from '../lib/schemas/workspaces.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, startServerProcess, workDir } from './server.ts';

const FULL = { rooms: 100, perRoom: 10, seconds: 15 };
const QUICK = { rooms: 10, perRoom: 10, seconds: 3 };
const EDIT_TIMEOUT_MS = 10_000;
const CONNECT_BATCH = 50;

type Client = { doc: Y.Doc; close(): void };
type Connector = (room: number, doc: Y.Doc) => Promise<Client>;

/** Resident memory of a process, in KB (Linux). */
function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) : 0;
}

/** The process that serves: scripts/start.ts spawns server/main.ts as its child. */
function childOf(pid: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return pid;
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

type Result = { clients: number; rooms: number; edits: number; lost: number; p50: number; p99: number; max: number; rssBeforeMb: number; rssAfterMb: number; kbPerConnection: number };

/** Connects rooms × perRoom clients, measures memory, then types in every room at once for `seconds`. */
async function measure(label: string, serverPid: number, rooms: number, perRoom: number, seconds: number, field: (room: number) => string, connector: Connector): Promise<Result> {
  // A warm-up room, left open: the first socket loads code (routes, Hocuspocus) and pools that 1,000 do not multiply.
  const warm = await Promise.all([connector(rooms, new Y.Doc()), connector(rooms, new Y.Doc())]);
  await sleep(2000);
  const before = rssKb(serverPid);
  const clients: Client[][] = Array.from({ length: rooms }, () => []);
  const slots = Array.from({ length: rooms * perRoom }, (_, i) => i % rooms);
  for (let i = 0; i < slots.length; i += CONNECT_BATCH) {
    await Promise.all(
      slots.slice(i, i + CONNECT_BATCH).map(async (room) => {
        clients[room].push(await connector(room, new Y.Doc()));
      }),
    );
  }
  await sleep(3000);
  const after = rssKb(serverPid);

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
  };
  console.log(
    `${label.padEnd(10)} ${result.clients} clients / ${rooms} rooms  ${result.edits} edits (${lost} lost)  p50 ${result.p50} ms  p99 ${result.p99} ms  max ${result.max} ms  RSS ${result.rssBeforeMb} → ${result.rssAfterMb} MB  ${result.kbPerConnection} KB/connection`,
  );
  return result;
}

export async function run({ quick, onStop }: BenchContext): Promise<void> {
  const shape = quick ? QUICK : FULL;
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();

  const database = await benchDatabase('rooms', onStop);
  // Room sockets per room per node are capped at ROOM_MAX_CONNECTIONS (100); ten per room stays under it.
  const atrium = await startAtriumProcess('atrium-rooms', database.url, onStop);
  const relay = await startServerProcess('baseline-rooms', 'bench/baseline-rooms.ts', onStop, {});
  const token = await devToken(atrium.base, 'bench-rooms');
  const api = createClient({ baseUrl: atrium.base, token, retries: 2 });

  await api.call(workspacesApi.create, { body: { slug: 'bench-team', name: 'Bench rooms' } });
  const roomIds: string[] = [];
  const pageIds: string[] = [];
  // One more than measured: the warm-up room.
  for (let i = 0; i <= shape.rooms; i++) {
    roomIds.push((await api.call(roomsApi.create, { body: { workspace: 'bench-team', name: `Room ${i + 1}`, template: 'blank' } })).id);
  }

  const hocuspocus: Connector = async (room, doc) => {
    const { url } = await api.call(roomsApi.ticket, { params: { id: roomIds[room] } });
    const provider = await new Promise<HocuspocusProvider>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`room ${room}: no sync within 30 s`)), 30_000);
      const p = new HocuspocusProvider({
        url,
        name: roomIds[room],
        document: doc,
        token: 'ticket',
        onSynced: () => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
    provider.awareness?.setLocalStateField('user', { name: `bench ${room}`, color: '#4338ca' });
    if (!pageIds[room]) pageIds[room] = String(doc.getArray<Y.Map<string>>('pages').get(0).get('id'));
    return { doc, close: () => provider.destroy() };
  };

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

  const atriumServer = childOf(atrium.pid);
  const results = {
    atrium: await measure('Atrium', atriumServer, shape.rooms, shape.perRoom, shape.seconds, (room) => `page:${pageIds[room]}`, hocuspocus),
    baseline: await measure('ws relay', relay.pid, shape.rooms, shape.perRoom, shape.seconds, () => 'page:bench', bare),
  };

  console.log('\n| server | clients | rooms | edits | lost | p50 ms | p99 ms | max ms | server RSS (MB) | KB per connection |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of [['Atrium', results.atrium], ['ws relay', results.baseline]] as const) {
    console.log(`| ${name} | ${r.clients} | ${r.rooms} | ${r.edits} | ${r.lost} | ${r.p50} | ${r.p99} | ${r.max} | ${r.rssBeforeMb} → ${r.rssAfterMb} | ${r.kbPerConnection} |`);
  }
  const file = path.join(workDir, 'results-rooms.json');
  await writeFile(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), quick, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, database: database.kind, ...results }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${path.relative(root, file)}`);
}
