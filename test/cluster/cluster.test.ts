// A cluster behind a real load balancer (scripts/cluster/harness.ts): three
// web nodes, two realtime nodes, PostgreSQL, Redis, an S3-protocol server for
// the blobs and HAProxy. It runs after
// the production build (scripts/test.ts), since web nodes serve it. Each
// scenario speaks HTTP and the room protocol as clients do, to the balancer or
// to one node on purpose; the load runs mix reads, pushes, space-database
// writes and socket edits while nodes are killed or restarted.
import { appendFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPrerequisites, ClusterSetupError, startCluster, type Cluster, type ClusterNode } from '../../scripts/cluster/harness.ts';
import { push, sha } from '../push.ts';
import { connect, waitFor, type Client } from '../rooms/socket-helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const resultsFile = path.join(root, '.atrium/test-results/cluster.json');

function missingPrerequisite(): string | null {
  try {
    checkPrerequisites({ redisUrl: process.env.REDIS_URL });
    return null;
  } catch (error) {
    if (error instanceof ClusterSetupError && !process.env.CI) return error.message;
    throw error;
  }
}
const missing = missingPrerequisite();
if (missing) console.warn(`Skipping the cluster test. ${missing}`);

type Answer = { status: number; json: any; text: string };

async function api(origin: string, method: string, route: string, options: { token?: string; body?: unknown; raw?: Buffer } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.raw) {
    body = new Uint8Array(options.raw);
    headers['content-type'] = 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${origin}${route}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

async function must(status: number, origin: string, method: string, route: string, options: Parameters<typeof api>[3] = {}) {
  const answer = await api(origin, method, route, options);
  if (answer.status !== status) throw new Error(`${method} ${route} on ${origin}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json;
}

/** One version through the plan / upload / commit cycle, all on `origin`; returns its number. */
const pushed = async (origin: string, token: string, spaceId: string, files: Record<string, string>, message: string): Promise<number> =>
  (await push(origin, token, spaceId, files, message)).commit.version.number;

/** A ticket's socket URL aimed at `origin` (a node, or the balancer). */
async function ticket(origin: string, token: string, roomId: string, socketOrigin: string): Promise<string> {
  const { url } = await must(200, origin, 'POST', `/v1/rooms/${roomId}/ticket`, { token });
  const parsed = new URL(url);
  return `${socketOrigin.replace(/^http/, 'ws')}${parsed.pathname}${parsed.search}`;
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

describe.skipIf(missing !== null)('a cluster behind HAProxy', () => {
  let cluster: Cluster;
  let lb: string;
  let owner: { token: string; handle: string };
  let member: { token: string; handle: string };
  const slug = 'cluster-team';
  const clients: Client[] = [];

  const signIn = async (handle: string) => ({ handle, token: (await must(200, lb, 'POST', '/v1/auth/dev-login', { body: { handle } })).token as string });
  const node = (name: string): ClusterNode => [...cluster.web, ...cluster.realtime].find((n) => n.name === name)!;

  beforeAll(async () => {
    const dataDir = path.join(root, '.atrium/cluster-test', String(process.pid));
    cluster = await startCluster({ dataDir, databaseUrl: process.env.DATABASE_URL!, redisUrl: process.env.REDIS_URL, env: { DEV_AUTH: 'true', LOG_REQUESTS: 'false' } });
    lb = cluster.origin;
    owner = await signIn('cluster-owner');
    member = await signIn('cluster-member');
    await must(200, lb, 'POST', '/v1/workspaces', { token: owner.token, body: { name: 'Cluster team', slug } });
    await must(204, lb, 'POST', `/v1/workspaces/${slug}/members`, { token: owner.token, body: { handle: member.handle, role: 'member' } });
    await must(204, lb, 'POST', `/v1/workspaces/${slug}/accept`, { token: member.token });
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await cluster?.stop();
  }, 60_000);

  it('publishes through one web node, reads, downloads and comments through the others', async () => {
    const [a, b, c] = cluster.web.map((n) => n.origin);
    const space = await must(200, a, 'POST', '/v1/spaces', { token: owner.token, body: { workspace: slug, name: 'Across nodes' } });
    const number = await pushed(a, owner.token, space.id, { 'index.html': '<h1>Served by any node</h1>\n', 'notes.txt': 'plain\n' }, 'First');
    const read = await must(200, b, 'GET', `/v1/spaces/${space.id}/files/index.html`, { token: owner.token });
    expect(JSON.stringify(read)).toContain('Served by any node');
    const link = await must(200, b, 'GET', `/v1/spaces/${space.id}/download-link/notes.txt`, { token: owner.token });
    const download = await fetch(`${c}${new URL(link.url, c).pathname}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('plain\n');
    const versions = await must(200, c, 'GET', `/v1/spaces/${space.id}/versions`, { token: owner.token });
    expect(versions.versions[0].number).toBe(number);
    // The bytes are in the bucket every node reaches, not on one node's disk.
    const objects = await readdir(cluster.s3Directory, { recursive: true });
    expect(objects.some((name) => name.includes(`blobs/${sha('plain\n')}`))).toBe(true);

    // A thread started on one node is answered, resolved and listed on the others.
    const thread = await must(200, b, 'POST', `/v1/spaces/${space.id}/comments`, { token: member.token, body: { path: 'index.html', body: 'Which node?', quote: 'Served by any node' } });
    await must(200, c, 'POST', `/v1/spaces/${space.id}/comments`, { token: owner.token, body: { path: 'index.html', body: 'Any of them.', parentId: thread.id } });
    await must(200, a, 'POST', `/v1/comments/${thread.id}/resolve`, { token: owner.token });
    const listed = await must(200, c, 'GET', `/v1/spaces/${space.id}/comments?path=index.html&status=all`, { token: member.token });
    expect(listed.threads).toMatchObject([{ id: thread.id, anchor: { status: 'anchored' }, replies: [{ body: 'Any of them.' }] }]);
    expect(listed.threads[0].resolvedBy).toMatchObject({ handle: owner.handle });
    const head = await must(200, b, 'GET', `/v1/spaces/${space.id}/head`, { token: member.token });
    expect(head.commentsUpdatedAt).toBeGreaterThanOrEqual(listed.threads[0].resolvedAt);
  });

  it('shares rate limits between web nodes: wrong unlock passwords spread over three nodes get exactly ten 401s', async () => {
    const space = await must(200, lb, 'POST', '/v1/spaces', { token: owner.token, body: { workspace: slug, name: 'Locked' } });
    await must(200, lb, 'PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { password: 'the right one' } });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api(cluster.web[i % 3].origin, 'POST', `/v1/spaces/${space.id}/unlock`, { body: { password: `wrong ${i}` } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it('keeps one history of space-database writes made on two nodes at once, and restores it exactly', async () => {
    const [a, b] = cluster.web.map((n) => n.origin);
    const space = await must(200, lb, 'POST', '/v1/spaces', { token: owner.token, body: { workspace: slug, name: 'Shared database' } });
    const q = (origin: string, sql: string, params: unknown[] = [], write = true) => api(origin, 'POST', `/v1/spaces/${space.id}/db/query`, { token: owner.token, body: { sql, params, write } });
    expect((await q(a, 'CREATE TABLE t (id INTEGER PRIMARY KEY, node TEXT)')).status).toBe(200);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => q(i % 2 ? a : b, 'INSERT INTO t (node) VALUES (?)', [i % 2 ? 'a' : 'b'])));
    expect(first.map((r) => r.status)).toEqual(Array(20).fill(200));
    await new Promise((r) => setTimeout(r, 1100));
    const between = Date.now();
    await new Promise((r) => setTimeout(r, 1100));
    const second = await Promise.all(Array.from({ length: 20 }, (_, i) => q(i % 2 ? b : a, 'INSERT INTO t (node) VALUES (?)', ['late'])));
    expect(second.map((r) => r.status)).toEqual(Array(20).fill(200));
    const counted = await q(cluster.web[2].origin, "SELECT count(*), sum(node = 'late') FROM t", [], false);
    expect(counted.json.rows).toEqual([[40, 20]]);
    const writes = await must(200, b, 'GET', `/v1/spaces/${space.id}/db/writes?limit=100`, { token: owner.token });
    expect(writes.writes).toHaveLength(41);
    await must(200, a, 'POST', `/v1/spaces/${space.id}/db/restore`, { token: owner.token, body: { at: between } });
    const restored = await q(cluster.web[1].origin, "SELECT count(*), sum(node = 'late') FROM t", [], false);
    expect(restored.json.rows).toEqual([[20, 0]]);
  });

  it('converges a room edited on both realtime nodes; chat and a revoked member cross nodes', async () => {
    const room = await must(200, lb, 'POST', '/v1/rooms', { token: owner.token, body: { workspace: slug, name: 'Two nodes' } });
    const [one, two] = cluster.realtime.map((n) => n.origin);
    const a = await connect(await ticket(lb, owner.token, room.id, one), room.id);
    const b = await connect(await ticket(lb, member.token, room.id, two), room.id);
    clients.push(a, b);
    a.write('Written on node one');
    b.write('Written on node two');
    await waitFor('both edits on both nodes', () => a.text().includes('Written on node two') && b.text().includes('Written on node one'), 15_000);
    a.say('hello from node one');
    await waitFor('the chat on node two', () => b.messages.find((m) => m.kind === 'chat.message' && m.message.body === 'hello from node one'), 15_000);
    await must(204, cluster.web[1].origin, 'DELETE', `/v1/workspaces/${slug}/members/${member.handle}`, { token: owner.token });
    await waitFor('access.revoked on node two', () => b.messages.find((m) => m.kind === 'access.revoked'), 15_000);
    await must(204, lb, 'POST', `/v1/workspaces/${slug}/members`, { token: owner.token, body: { handle: member.handle, role: 'member' } });
    await must(204, lb, 'POST', `/v1/workspaces/${slug}/accept`, { token: member.token });
  }, 60_000);

  /**
   * 50 clients for `seconds`: reads, pushes and database writes over HTTP
   * through the balancer, and editors on room sockets. Every write answered
   * 2xx (and every socket edit acknowledged) is remembered, to be looked for
   * afterwards. `during` runs while the load does (kills, restarts).
   */
  async function load(seconds: number, during: () => Promise<void>) {
    const space = await must(200, lb, 'POST', '/v1/spaces', { token: owner.token, body: { workspace: slug, name: `Load ${Date.now()}` } });
    await pushed(lb, owner.token, space.id, { 'index.html': '<p>load</p>\n' }, 'Base');
    const q = (sql: string, params: unknown[] = [], write = true) => api(lb, 'POST', `/v1/spaces/${space.id}/db/query`, { token: owner.token, body: { sql, params, write } });
    expect((await q('CREATE TABLE w (id INTEGER PRIMARY KEY, tag TEXT UNIQUE)')).status).toBe(200);
    const room = await must(200, lb, 'POST', '/v1/rooms', { token: owner.token, body: { workspace: slug, name: `Load room ${Date.now()}` } });

    type Outcome = { kind: string; started: number; ended: number; status: number | 'network' };
    const outcomes: Outcome[] = [];
    const acknowledged = { rows: [] as string[], versions: [] as number[], edits: [] as string[] };
    const deadline = Date.now() + seconds * 1000;
    let serial = 0;

    const timed = async (kind: string, work: () => Promise<number>) => {
      const started = Date.now();
      let status: number | 'network';
      try {
        status = await work();
      } catch {
        status = 'network';
      }
      outcomes.push({ kind, started, ended: Date.now(), status });
      return status;
    };

    const httpClient = async (i: number) => {
      while (Date.now() < deadline) {
        const pick = (serial++ + i) % 10;
        if (pick < 6) {
          await timed('read', async () => (await api(lb, 'GET', `/v1/spaces/${space.id}/files/index.html`, { token: owner.token })).status);
        } else if (pick < 9) {
          const tag = `row-${i}-${serial}`;
          const status = await timed('db write', async () => (await q('INSERT INTO w (tag) VALUES (?)', [tag])).status);
          if (status === 200) acknowledged.rows.push(tag);
        } else {
          const status = await timed('push', async () => {
            const n = await pushed(lb, owner.token, space.id, { 'index.html': `<p>push ${i} ${serial}</p>\n` }, `Load ${i}`);
            acknowledged.versions.push(n);
            return 200;
          });
          void status;
        }
      }
    };

    const editors: Client[] = [];
    for (let i = 0; i < 6; i++) {
      const editor = await connect(await ticket(lb, owner.token, room.id, lb), room.id);
      // A ticket opens one socket once: every reconnect asks for a new one, as the web app does.
      editor.provider.configuration.websocketProvider.configuration.maxAttempts = 0;
      editor.provider.on('close', () => {
        void ticket(lb, owner.token, room.id, lb).then((url) => (editor.provider.configuration.websocketProvider.configuration.url = url), () => {});
      });
      editors.push(editor);
      clients.push(editor);
    }
    const reconnects: number[] = [];
    for (const editor of editors) {
      let closedAt = 0;
      editor.provider.on('close', () => (closedAt ||= Date.now()));
      editor.provider.on('synced', () => {
        if (closedAt) reconnects.push(Date.now() - closedAt);
        closedAt = 0;
      });
    }
    const editorLoop = async (editor: Client, i: number) => {
      while (Date.now() < deadline) {
        const line = `edit-${i}-${serial++}`;
        editor.write(line);
        try {
          await waitFor('the acknowledgement', () => editor.provider.unsyncedChanges === 0, 20_000);
          acknowledged.edits.push(line);
        } catch {
          // Not acknowledged (the node went away mid-edit): the provider resends it on reconnect.
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const started = Date.now();
    await Promise.all([
      ...Array.from({ length: 44 }, (_, i) => httpClient(i)),
      ...editors.map((editor, i) => editorLoop(editor, i)),
      (async () => {
        await new Promise((r) => setTimeout(r, 5000));
        await during();
      })(),
    ]);
    return { space, room, outcomes, acknowledged, reconnects, started, editors, q };
  }

  async function verify(result: Awaited<ReturnType<typeof load>>) {
    const { q, acknowledged, space, editors } = result;
    const tags = new Set<string>(((await q('SELECT tag FROM w', [], false)).json.rows as string[][]).map((row) => row[0]));
    const lostRows = acknowledged.rows.filter((tag) => !tags.has(tag));
    const versions = new Set<number>((await must(200, lb, 'GET', `/v1/spaces/${space.id}/versions`, { token: owner.token })).versions.map((v: { number: number }) => v.number));
    const lostVersions = acknowledged.versions.filter((n) => !versions.has(n));
    await waitFor('the editors to converge', () => editors.every((e) => e.provider.isSynced && e.text() === editors[0].text()), 30_000);
    const markdown = await api(lb, 'GET', `/v1/rooms/${result.room.id}/markdown`, { token: owner.token });
    const lostEdits = acknowledged.edits.filter((line) => !markdown.text.includes(line) && !editors[0].text().includes(line));
    return { lostRows, lostVersions, lostEdits };
  }

  async function record(name: string, result: Awaited<ReturnType<typeof load>>, extra: Record<string, unknown> = {}) {
    const errors: Record<string, number> = {};
    for (const o of result.outcomes) if (o.status === 'network' || o.status >= 400) errors[`${o.kind} ${o.status}`] = (errors[`${o.kind} ${o.status}`] ?? 0) + 1;
    const figures = {
      scenario: name,
      requests: result.outcomes.length,
      errors,
      writesAcknowledged: result.acknowledged.rows.length + result.acknowledged.versions.length,
      editsAcknowledged: result.acknowledged.edits.length,
      reconnectMs: { count: result.reconnects.length, p50: percentile(result.reconnects, 50), p99: percentile(result.reconnects, 99) },
      ...extra,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await appendFile(resultsFile, `${JSON.stringify(figures)}\n`);
    console.log(JSON.stringify(figures));
    return figures;
  }

  it('loses no acknowledged write when a web node and a realtime node are killed with SIGKILL under load', async () => {
    let killedAt = 0;
    const victimWeb = node('web-2');
    const victimRt = node('rt-1');
    const result = await load(30, async () => {
      killedAt = Date.now();
      await Promise.all([victimWeb.kill('SIGKILL'), victimRt.kill('SIGKILL')]);
    }).finally(() => Promise.all([victimWeb.start(), victimRt.start()]));
    const lost = await verify(result);
    // Only requests that were in flight on the killed node may fail: none that
    // started once the balancer could have noticed (checks every 500 ms, two failures).
    const failed = result.outcomes.filter((o) => o.status === 'network' || o.status >= 500);
    await record('kill -9 of web-2 and rt-1', result, { inFlightErrors: failed.length });
    expect(lost).toEqual({ lostRows: [], lostVersions: [], lostEdits: [] });
    expect(failed.filter((o) => o.started > killedAt + 1500)).toEqual([]);
    expect(result.outcomes.filter((o) => typeof o.status === 'number' && o.status >= 400 && o.status < 500)).toEqual([]);
  }, 180_000);

  it('restarts every node in turn with a drain and fails no request', async () => {
    const result = await load(40, async () => {
      for (const n of [...cluster.web, ...cluster.realtime]) {
        expect(await n.kill('SIGTERM')).toBe(0);
        await n.start();
      }
    });
    const lost = await verify(result);
    const figures = await record('rolling restart with drain', result);
    expect(lost).toEqual({ lostRows: [], lostVersions: [], lostEdits: [] });
    expect(figures.errors).toEqual({});
  }, 240_000);
});
