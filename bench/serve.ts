// Benchmark "serve": a public site's files fetched anonymously on the site's
// own host from the production server, against bench/baseline-serve.ts (a bare
// node:http server reading the same files from disk with the same headers), in
// the same run: a small stylesheet, an HTML page (which Atrium counts as a
// view), a revalidation answered 304, and a large stylesheet to a client that
// takes brotli (the baseline sending the bytes Atrium stored, from disk), at
// 10 and 50 connections.
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { compare, comparisonTable, type Load, type Target } from './compare.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, hostRequest, root, startAtriumProcess, startServerProcess, workDir } from './server.ts';

const CONNECTIONS = [10, 50];
/** Headers that differ per request or per server by nature. */
const OWN_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

/** About `size` bytes of text, different per name. */
function text(name: string, line: (i: number) => string, size = 10_000): string {
  let out = '';
  for (let i = 0; out.length < size; i++) out += line(i);
  return `${out}/* ${name} */\n`;
}
const rule = (i: number) => `.rule-${i} { margin: ${i % 17}px; color: #${(i * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}; }\n`;

const site = {
  'index.html': `<!doctype html><html><head><title>Bench</title><link rel="stylesheet" href="style.css"></head><body>\n${text('index', (i) => `<p>Paragraph ${i} of a page people read.</p>\n`)}</body></html>\n`,
  'style.css': text('style', rule),
  'large.css': text('large', rule, 100_000),
};
/** What browsers send, brotli first; both servers answer with brotli. */
const TAKES_BROTLI = { 'accept-encoding': 'br, gzip' };

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  const seconds = smoke ? { warmup: 0, measure: 1, rounds: 1 } : quick ? { warmup: 1, measure: 2 } : { warmup: 3, measure: 10 };
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();
  const siteDir = path.join(workDir, 'serve-site');
  await rm(siteDir, { recursive: true, force: true });
  await mkdir(siteDir, { recursive: true });
  for (const [name, content] of Object.entries(site)) await writeFile(path.join(siteDir, name), content);

  const database = await benchDatabase('serve', onStop);
  const { base, pid } = await startAtriumProcess('atrium-serve', database.url, onStop);
  const token = await devToken(base, 'bench');
  const api = async (method: string, route: string, body?: unknown, raw?: string) => {
    const response = await fetch(base + route, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  };
  const space = await api('POST', '/v1/spaces', { workspace: 'bench', name: 'Served', visibility: 'public' });
  const files = Object.entries(site).map(([name, content]) => ({ path: name, sha256: createHash('sha256').update(content).digest('hex'), size: Buffer.byteLength(content) }));
  for (const [i, [, content]] of Object.entries(site).entries()) await api('PUT', `/v1/spaces/${space.id}/blobs/${files[i].sha256}`, undefined, content);
  await api('POST', `/v1/spaces/${space.id}/versions`, { files });

  // Visitors come to the site's own host (sp-<id>.localhost:<port>); the requests go to the server's address with that Host.
  const siteHost = new URL(space.url).host;
  const atriumAnswer = await hostRequest(base, siteHost, '/style.css');
  const csp = atriumAnswer.headers['content-security-policy'];
  // The brotli bytes Atrium made and stored, beside the file, for the baseline to send as they are.
  const compressed = await hostRequest(base, siteHost, '/large.css', TAKES_BROTLI);
  if (compressed.headers['content-encoding'] !== 'br') throw new Error(`Atrium answered /large.css with ${compressed.headers['content-encoding'] ?? 'no'} coding, not br`);
  await writeFile(path.join(siteDir, 'large.css.br'), compressed.body);
  const baselineServer = await startServerProcess('baseline-serve', 'bench/baseline-serve.ts', onStop, { SITE_DIR: siteDir, SITE_CSP: csp });
  const atrium: Target = { name: 'Atrium', base, pid };
  const baseline: Target = { name: 'baseline', base: baselineServer.base, pid: baselineServer.pid };

  // A baseline that answers something else would measure something else: same bytes, same headers.
  const etag = atriumAnswer.headers.etag;
  for (const [pathname, headers] of [['/style.css', {}], ['/', {}], ['/style.css', { 'if-none-match': etag }], ['/large.css', TAKES_BROTLI]] as const) {
    const [mine, theirs] = await Promise.all([hostRequest(base, siteHost, pathname, headers), hostRequest(baseline.base, 'localhost', pathname, headers)]);
    const differences = [`status ${mine.status} / ${theirs.status}`].filter(() => mine.status !== theirs.status);
    if (!mine.body.equals(theirs.body)) differences.push('body');
    for (const name of new Set([...Object.keys(mine.headers), ...Object.keys(theirs.headers)])) {
      if (!OWN_HEADERS.has(name) && mine.headers[name] !== theirs.headers[name]) differences.push(`${name}: ${mine.headers[name]} / ${theirs.headers[name]}`);
    }
    if (differences.length) throw new Error(`The baseline answers ${pathname} differently (Atrium / baseline): ${differences.join('; ')}`);
  }

  const views = new pg.Client({ connectionString: database.url });
  await views.connect();
  onStop(() => views.end());
  const viewCount = async () => Number((await views.query('SELECT count(*) AS n FROM "SpaceView" WHERE "spaceId" = $1', [space.id])).rows[0].n);

  const loads: Array<{ what: string; path: string; headers?: Record<string, string>; status: number }> = [
    { what: 'stylesheet (10 KB)', path: '/style.css', status: 200 },
    { what: 'HTML page (10 KB) and its view', path: '/', status: 200 },
    { what: 'revalidation (304)', path: '/style.css', headers: { 'if-none-match': etag }, status: 304 },
    { what: `compressed stylesheet (${Math.round(site['large.css'].length / 1000)} KB, ${Math.round(compressed.body.length / 1000)} KB as brotli)`, path: '/large.css', headers: TAKES_BROTLI, status: 200 },
  ];
  const rows = [];
  let pages = 0;
  const viewsBefore = await viewCount();
  for (const load of loads) {
    for (const connections of smoke ? [10] : CONNECTIONS) {
      const pair = (host: string): Load => ({ path: load.path, status: load.status, headers: { host, ...load.headers } });
      const result = await compare(atrium, baseline, { atrium: pair(siteHost), baseline: pair('localhost') }, connections, seconds, load.what);
      if (load.path === '/') pages += result.atriumAnswered;
      rows.push({ what: load.what, ...result });
    }
  }
  // Views are written in batches: give the last one time to land, then count.
  await sleep(2_000);
  const recorded = (await viewCount()) - viewsBefore;

  console.log(`\n${comparisonTable(rows)}\n`);
  console.log(`Views recorded: ${recorded.toLocaleString('en')} of ${pages.toLocaleString('en')} HTML answers.`);
  // Requests still in flight when a round ends are answered (and counted) but not in autocannon's figures.
  if (recorded < pages) throw new Error(`${pages - recorded} views were lost`);
  const file = path.join(workDir, 'results-serve.json');
  const report = { benchmark: 'serve', date: new Date().toISOString(), quick, smoke, seconds, machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version }, database: database.kind, views: { recorded, pages }, results: rows };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Atrium / baseline = Atrium req/s over the baseline's (targets: assets at least 0.5x, HTML pages with their view 0.4x, compressed stylesheet 1.0x). Written to ${path.relative(root, file)}.`);
}
