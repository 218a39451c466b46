// A space database under faults: three nodes on one PostgreSQL (a server this
// file starts, behind a small TCP relay so that the nodes reach it on one
// address across its restart), writers and readers on one space through every
// node, PostgreSQL restarted with a fast shutdown mid-writes, then one node
// killed with SIGKILL. Afterwards every acknowledged row is there, each
// node's cache file passes PRAGMA quick_check and holds exactly the bytes the
// history replays to, no answer blamed the caller for the server's trouble,
// and a node started afresh rebuilds the same file.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl, ensureDatabase, startEmbeddedPostgres, type RunningPostgres } from '@/lib/db/embedded-postgres.ts';
import { PrismaClient } from '@/lib/db/generated/client.ts';
import { migrate } from '@/lib/db/migrate.ts';
import { devLogin, request, useApiServers, type Answer, type ApiProcess } from '../process-server.ts';
import { waitFor } from '../rooms/socket-helpers.ts';
import { cacheFileOf, quickCheck, replayed } from './files.ts';

const dataDir = path.resolve(`.atrium/test-spacedb-faults-${process.pid}`);
const servers = useApiServers();
let postgres: RunningPostgres;
let relay: Relay;
let nodeUrl: string;
let history: PrismaClient;

type Relay = { port: number; retarget(port: number): void; close(): Promise<void> };

/** Forwards connections on a port of its own to PostgreSQL's current port. */
async function startRelay(target: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    retarget: (port) => (target = port),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const portOf = (serverUrl: string) => Number(new URL(serverUrl).port);

beforeAll(async () => {
  postgres = await startEmbeddedPostgres({ dataDir });
  await ensureDatabase(postgres.serverUrl, 'atrium');
  await migrate(databaseUrl(postgres.serverUrl, 'atrium'));
  relay = await startRelay(portOf(postgres.serverUrl));
  const url = new URL(databaseUrl(postgres.serverUrl, 'atrium'));
  url.port = String(relay.port);
  nodeUrl = url.toString();
  history = new PrismaClient({ adapter: new PrismaPg({ connectionString: nodeUrl }) });
}, 120_000);

afterAll(async () => {
  await history?.$disconnect();
  await relay?.close();
  await postgres?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});



it('keeps every acknowledged row and one consistent file on every node through a PostgreSQL restart and a node killed mid-write', async () => {
  const nodes = await Promise.all([0, 1, 2].map(() => servers.start({ DATABASE_URL: nodeUrl, SPACEDB_WORKERS: '1' })));
  const { token } = await devLogin(nodes[0].origin, 'faults');
  const space = await request(nodes[0].origin, 'POST', '/v1/spaces', { token, body: { workspace: 'faults', name: 'Faults' } });
  const spaceId = space.json.id as string;
  const query = (node: ApiProcess, sql: string, params: unknown[], write: boolean): Promise<Answer | null> =>
    request(node.origin, 'POST', `/v1/spaces/${spaceId}/db/query`, { token, body: { sql, params, write } }).catch(() => null);
  expect((await query(nodes[0], 'CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT UNIQUE, at INTEGER)', [], true))?.status).toBe(200);

  const acknowledged = new Set<string>();
  // 4xx answers: a fault of the server's must never be answered as the caller's mistake.
  const blamed: string[] = [];
  const statuses = new Map<number, number>();
  const killed = new Set<ApiProcess>();
  let running = true;
  const note = (answer: Answer | null) => {
    if (!answer) return;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) blamed.push(`${answer.status} ${answer.text}`);
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

  const writer = async (node: ApiProcess, name: string) => {
    for (let n = 0; running && !killed.has(node) && n < 3000; n++) {
      const tag = `${name}-${n}`;
      const answer = await query(node, 'INSERT INTO w (tag, at) VALUES (?, ?)', [tag, Date.now()], true);
      note(answer);
      if (answer?.status === 200) acknowledged.add(tag);
      else await pause();
    }
  };
  const reader = async (node: ApiProcess) => {
    for (let n = 0; running && !killed.has(node) && n < 3000; n++) {
      const answer = await query(node, 'SELECT count(*), max(id) FROM w', [], false);
      note(answer);
      if (answer?.status !== 200) await pause();
    }
  };
  const loops = [...nodes.flatMap((node, i) => [writer(node, `n${i}a`), writer(node, `n${i}b`)]), ...nodes.flatMap((node) => [reader(node), reader(node)])];

  await waitFor('writes before the restart', () => acknowledged.size >= 40, 30_000);
  await postgres.stop();
  postgres = await startEmbeddedPostgres({ dataDir });
  relay.retarget(portOf(postgres.serverUrl));
  const afterRestart = acknowledged.size;
  await waitFor('writes after the restart', () => acknowledged.size >= afterRestart + 60, 30_000);
  killed.add(nodes[2]);
  await nodes[2].kill('SIGKILL');
  const afterKill = acknowledged.size;
  await waitFor('writes after the kill', () => acknowledged.size >= afterKill + 30, 30_000);
  running = false;
  await Promise.all(loops);

  expect(blamed, `answers: ${JSON.stringify([...statuses])}`).toEqual([]);
  const fresh = await servers.start({ DATABASE_URL: nodeUrl, SPACEDB_WORKERS: '1' });
  const historyBytes = await replayed(history, spaceId);
  for (const node of [nodes[0], nodes[1], fresh]) {
    const rows = await query(node, 'SELECT tag FROM w', [], false);
    expect(rows?.status, rows?.text).toBe(200);
    const tags = new Set((rows!.json.rows as string[][]).map(([tag]) => tag));
    expect([...acknowledged].filter((tag) => !tags.has(tag)), `acknowledged rows missing on ${node.origin}`).toEqual([]);
    const file = cacheFileOf(node, spaceId);
    expect(quickCheck(file)).toBe('ok');
    expect(fs.readFileSync(file).equals(historyBytes), `${node.origin}'s file is the history's`).toBe(true);
  }
}, 150_000);
