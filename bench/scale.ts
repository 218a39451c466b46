// Benchmark "scale": how the time of each operation whose cost could grow with
// the data grows as the data does, on the production server. Each operation is
// timed at three sizes, ten times apart (the median of a few tries); a table
// per operation and a chart (.atrium/bench/scale.svg) show the curves. An
// operation is flagged when it grows faster than its input, or at all where
// the work does not depend on it (a page of a list, a point read).
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as Y from 'yjs';
import { addPage } from '../lib/rooms/document.ts';
import type { BenchContext } from './run.ts';
import { connectRoom } from './room-client.ts';
import { benchDatabase, buildIfNeeded, devToken, root, startAtriumProcess, workDir } from './server.ts';

/** How an operation's time may grow with its input: like it (linear) or not at all (constant). */
type Expected = 'linear' | 'constant';
type Curve = { operation: string; unit: string; expected: Expected; points: Array<{ size: number; ms: number }> };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const tries = smoke ? 1 : quick ? 3 : 5;
  // Sizes ten times apart; --quick stops one size short, --smoke runs one tiny size.
  const sizes = (largest: number) => (smoke ? [largest / 1000] : quick ? [largest / 100, largest / 10] : [largest / 100, largest / 10, largest]);
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();
  const database = await benchDatabase('scale', onStop);
  const { base } = await startAtriumProcess('atrium-scale', database.url, onStop);
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  onStop(() => sql.end());
  const token = await devToken(base, 'bench');
  const me = (await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { user: { id: string } };

  const call = async (method: string, route: string, body?: unknown, raw?: string, as = token) => {
    const response = await fetch(base + route, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
    return text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  };
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const best = async (work: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < tries; i++) times.push(await timed(work));
    return median(times);
  };
  const curves: Curve[] = [];
  const curve = (operation: string, unit: string, expected: Expected) => {
    const c: Curve = { operation, unit, expected, points: [] };
    curves.push(c);
    return (size: number, ms: number) => {
      c.points.push({ size, ms });
      console.log(`${operation.padEnd(44)} ${String(size.toLocaleString('en')).padStart(9)} ${unit.padEnd(10)} ${ms.toFixed(1).padStart(10)} ms`);
    };
  };
  const space = async (name: string) => (await call('POST', '/v1/spaces', { workspace: 'bench', name })).id as string;

  // --- pushing: plan, uploads (8 at a time), commit; then a push that changes one file
  const firstPush = curve('first push (plan, uploads, commit)', 'files', 'linear');
  // The plan lists every file (as Netlify's deploy API does): linear in the site, with a small slope.
  const onePush = curve('push changing one file of them', 'files', 'linear');
  for (const count of sizes(100_000)) {
    const id = await space(`push-${count}`);
    const files = Array.from({ length: count }, (_, i) => ({ path: `d${i % 100}/f${i}.txt`, content: `file ${i} of ${count}\n` }));
    const push = async (list: typeof files) => {
      const entries = list.map((f) => ({ path: f.path, sha256: sha(f.content), size: Buffer.byteLength(f.content) }));
      const plan = await call('POST', `/v1/spaces/${id}/push/plan`, { files: entries });
      const missing = new Set<string>(plan.missing);
      const queue = list.filter((f) => missing.has(sha(f.content)));
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (let f = queue.shift(); f; f = queue.shift()) await call('PUT', `/v1/spaces/${id}/blobs/${sha(f.content)}`, undefined, f.content);
      }));
      await call('POST', `/v1/spaces/${id}/versions`, { files: entries });
    };
    firstPush(count, await timed(() => push(files)));
    let round = 0;
    onePush(count, await best(() => push(files.map((f, i) => (i === 0 ? { ...f, content: `changed ${++round}\n` } : f)))));
  }

  // --- reading history: versions, a file's history, and the visitors page.
  // Both lists are whole by the contract (GET …/versions answers every
  // version; a file's history reads each version's index for the path).
  const versions = curve('GET versions (all of them)', 'versions', 'linear');
  const fileHistory = curve("GET a file's history", 'versions', 'linear');
  for (const count of sizes(1_000)) {
    const id = await space(`history-${count}`);
    for (let v = 1; v <= count; v++) {
      const content = `version ${v}\n`;
      const entry = { path: 'index.html', sha256: sha(content), size: content.length };
      await call('PUT', `/v1/spaces/${id}/blobs/${entry.sha256}`, undefined, content);
      await call('POST', `/v1/spaces/${id}/versions`, { files: [entry] });
    }
    versions(count, await best(() => call('GET', `/v1/spaces/${id}/versions`)));
    fileHistory(count, await best(() => call('GET', `/v1/spaces/${id}/history/index.html`)));
  }
  const visitors = curve('GET visitors (30 days)', 'views', 'linear');
  for (const count of sizes(1_000_000)) {
    const id = await space(`views-${count}`);
    await sql.query(
      `INSERT INTO "SpaceView" ("spaceId", "at", "path", "referrer", "country", "visitor")
       SELECT $1, now() - (i % 2592000) * interval '1 second', '/p' || (i % 50), 'ref' || (i % 30) || '.example', 'C' || (i % 20), 'v' || (i % ($2 / 3 + 1))
       FROM generate_series(1, $2) AS i`,
      [id, count],
    );
    visitors(count, await best(() => call('GET', `/v1/spaces/${id}/visitors`)));
  }

  // --- a space database
  const point = curve('space db: point read', 'rows', 'constant');
  const range = curve('space db: indexed range of 100 rows', 'rows', 'constant');
  const insert = curve('space db: one-row insert', 'rows', 'constant');
  const dump = curve('space db: export', 'rows', 'linear');
  const restore = curve('space db: restore to before 100 writes', 'rows', 'linear');
  for (const count of sizes(1_000_000)) {
    const id = await space(`db-${count}`);
    const query = (body: object) => call('POST', `/v1/spaces/${id}/db/query`, body);
    await query({ sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, body TEXT)', write: true });
    await query({ sql: 'CREATE INDEX t_k ON t (k)', write: true });
    for (let start = 0; start < count; start += 100_000) {
      const end = Math.min(count, start + 100_000);
      await query({ sql: `INSERT INTO t (k, body) SELECT x, hex(randomblob(20)) FROM (WITH RECURSIVE c(x) AS (SELECT ${start + 1} UNION ALL SELECT x + 1 FROM c WHERE x < ${end}) SELECT x FROM c)`, write: true });
    }
    let n = 0;
    point(count, await best(() => query({ sql: 'SELECT * FROM t WHERE id = ?', params: [(++n * 7919) % count + 1] })));
    range(count, await best(() => query({ sql: 'SELECT * FROM t WHERE k >= ? ORDER BY k LIMIT 100', params: [(++n * 7919) % (count - 100) + 1] })));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    insert(count, await best(() => query({ sql: 'INSERT INTO t (k, body) VALUES (?, ?)', params: [++n, 'x'], write: true })));
    for (let i = 0; i < 100 - tries; i++) await query({ sql: 'INSERT INTO t (k, body) VALUES (?, ?)', params: [++n, 'x'], write: true });
    dump(count, await best(() => call('GET', `/v1/spaces/${id}/db/export`)));
    restore(count, await timed(() => call('POST', `/v1/spaces/${id}/db/restore`, { at: before })));
  }

  // --- a person in many workspaces, a workspace of many members
  const meCurve = curve('GET /v1/me', 'workspaces', 'linear');
  const spacesCurve = curve('GET /v1/spaces', 'workspaces', 'linear');
  const dashboard = curve('the dashboard page', 'workspaces', 'linear');
  const members = curve('GET a workspace (with its members)', 'members', 'linear');
  let made = 1; // the personal workspace
  for (const count of sizes(1_000)) {
    await sql.query(
      `WITH w AS (INSERT INTO "Workspace" ("id", "slug", "name") SELECT 'ws_scale_' || i, 'scale-' || i, 'Scale ' || i FROM generate_series($1::int, $2::int) AS i RETURNING "id")
       INSERT INTO "Membership" ("workspaceId", "userId", "role", "status") SELECT w."id", $3, 'member', 'accepted' FROM w`,
      [made + 1, count, me.user.id],
    );
    made = count;
    meCurve(count, await best(() => call('GET', '/v1/me')));
    spacesCurve(count, await best(() => call('GET', '/v1/spaces')));
    dashboard(count, await best(async () => {
      const page = await fetch(`${base}/`, { headers: { cookie: `atrium_session=${await sessionToken()}` } });
      if (!page.ok) throw new Error(`the dashboard answered ${page.status}`);
      await page.text();
    }));
    await sql.query(
      `INSERT INTO "User" ("id", "handle") SELECT 'usr_scale_' || $1::int || '_' || i, 'scale-' || $1::int || '-' || i FROM generate_series(1, $1::int) AS i`,
      [count],
    );
    await sql.query(`INSERT INTO "Workspace" ("id", "slug", "name") VALUES ($1, $1, $1)`, [`team-${count}`]);
    await sql.query(
      `INSERT INTO "Membership" ("workspaceId", "userId", "role", "status")
       SELECT $1, 'usr_scale_' || $2::int || '_' || i, 'member'::"WorkspaceRole", 'accepted'::"MembershipStatus" FROM generate_series(1, $2::int) AS i
       UNION ALL SELECT $1, $3, 'owner'::"WorkspaceRole", 'accepted'::"MembershipStatus"`,
      [`team-${count}`, count, me.user.id],
    );
    members(count, await best(() => call('GET', `/v1/workspaces/team-${count}`)));
  }

  // --- a room's document
  const synced = curve('room: connect until synced', 'pages', 'linear');
  const markdown = curve('room: markdown export', 'pages', 'linear');
  for (const count of sizes(1_000)) {
    const room = await call('POST', '/v1/rooms', { workspace: 'bench', name: `Pages ${count}`, template: 'blank' });
    const doc = new Y.Doc();
    for (let i = 0; i < count; i++) addPage(doc, `Page ${i}`, [{ type: 'paragraph', content: [{ type: 'text', text: `The text of page ${i}. `.repeat(20) }] }]);
    await sql.query('DELETE FROM "RoomUpdate" WHERE "roomId" = $1', [room.id]);
    await sql.query('UPDATE "Room" SET "roomDoc" = $2 WHERE "id" = $1', [room.id, Buffer.from(Y.encodeStateAsUpdate(doc))]);
    synced(count, await timed(async () => {
      const { url } = await call('POST', `/v1/rooms/${room.id}/ticket`);
      (await connectRoom(url, room.id, new Y.Doc())).close();
    }));
    markdown(count, await best(() => call('GET', `/v1/rooms/${room.id}/markdown`)));
  }

  async function sessionToken(): Promise<string> {
    sessionCache ??= ((await (await fetch(`${base}/v1/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'bench', label: 'web' }) })).json()) as { token: string }).token;
    return sessionCache;
  }

  report(curves);
  const chartFile = path.join(workDir, 'scale.svg');
  await writeFile(chartFile, chart(curves));
  const out = path.join(workDir, 'results-scale.json');
  await writeFile(out, `${JSON.stringify({ benchmark: 'scale', date: new Date().toISOString(), quick, machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version }, database: database.kind, curves }, null, 2)}\n`);
  console.log(`\nChart: ${path.relative(root, chartFile)}; figures: ${path.relative(root, out)}.`);
}
let sessionCache: string | undefined;

/**
 * Growth per tenfold input: the time at the larger size over the time at the
 * smaller. A linear operation may grow up to about ten times (15 allows for
 * noise); a constant one up to 2 (caches, noise). Times under 5 ms count as 5:
 * below that a request's fixed cost and the noise are all there is.
 */
function verdict(c: Curve): string {
  const growths = c.points.slice(1).map((p, i) => Math.max(5, p.ms) / Math.max(5, c.points[i].ms));
  const limit = c.expected === 'linear' ? 15 : 2;
  const worst = Math.max(...growths);
  return `${growths.map((g) => `${g.toFixed(1)}x`).join(', ')}${worst > limit ? ` — grows faster than ${c.expected === 'linear' ? 'its input' : 'a constant'}` : ''}`;
}

function report(curves: Curve[]) {
  console.log('\n| operation | input | expected | times (ms) at each size | growth per tenfold input |');
  console.log('|---|---|---|---|---|');
  for (const c of curves) {
    const times = c.points.map((p) => `${p.size.toLocaleString('en')}: ${p.ms < 10 ? p.ms.toFixed(1) : Math.round(p.ms).toLocaleString('en')}`).join(' · ');
    console.log(`| ${c.operation} | ${c.unit} | ${c.expected} | ${times} | ${verdict(c)} |`);
  }
}

/** A log-log chart of every curve: one line each, input ten times larger per step. */
function chart(curves: Curve[]): string {
  const width = 900;
  const rowHeight = 22;
  const plot = { left: 70, top: 20, width: 520, height: 420 };
  const all = curves.flatMap((c) => c.points.map((p) => Math.max(0.1, p.ms)));
  const [lo, hi] = [Math.floor(Math.log10(Math.min(...all))), Math.ceil(Math.log10(Math.max(...all)))];
  const y = (ms: number) => plot.top + plot.height - ((Math.log10(Math.max(0.1, ms)) - lo) / Math.max(1, hi - lo)) * plot.height;
  const x = (step: number) => plot.left + (step / 2) * plot.width;
  const colours = ['#4f46e5', '#db2777', '#059669', '#d97706', '#0284c7', '#7c3aed', '#dc2626', '#65a30d', '#0891b2', '#9333ea', '#ea580c', '#16a34a', '#2563eb', '#be185d', '#475569', '#a16207', '#0d9488', '#6d28d9'];
  const lines = curves.map((c, i) => {
    const colour = colours[i % colours.length];
    const points = c.points.map((p, step) => `${x(step).toFixed(1)},${y(p.ms).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points}"/><rect x="${plot.left + plot.width + 20}" y="${plot.top + i * rowHeight}" width="12" height="12" fill="${colour}"/><text x="${plot.left + plot.width + 38}" y="${plot.top + i * rowHeight + 11}" font-size="12">${c.operation} (per ${c.unit})</text>`;
  });
  const grid = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((e) => `<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#e2e8f0"/><text x="${plot.left - 8}" y="${y(10 ** e) + 4}" font-size="12" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toLocaleString('en') : 10 ** e} ms</text>`);
  const steps = ['smallest', '10x', '100x'].map((label, step) => `<text x="${x(step)}" y="${plot.top + plot.height + 20}" font-size="12" text-anchor="middle">${label}</text>`);
  const height = Math.max(plot.top + plot.height + 40, plot.top + curves.length * rowHeight + 20);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width + 300}" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${grid.join('')}${steps.join('')}${lines.join('')}</svg>\n`;
}
