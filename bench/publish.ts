// Benchmark "publish": pushing a 10,000-file site of about 100 MB to a space
// and reading it back, against bench/baseline-publish.ts (a bare node:http
// server that receives, hash-checks and stores the same files, and serves
// them) at the same upload concurrency, in the same run. Also times the atrium
// CLI pushing the same folder cold (no hash cache, nothing on the server) and
// warm (nothing changed).
//
//   first push      plan + upload every file + commit    vs  upload every file + manifest
//   one change      plan + upload one file + commit      vs  upload one file + manifest
//   download        GET every file of the served site    vs  GET every file
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Agent } from 'node:http';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, type AtriumClient } from '../lib/client/index.ts';
import { buildCli } from '../scripts/build-cli.ts';
import { spacesApi } from '../lib/schemas/spaces.ts';
import { fileBody } from '../cli/context.ts';
import { eachLimit } from '../lib/pool.ts';
import { walk, type LocalFile } from '../cli/push/walk.ts';
import type { BenchContext } from './run.ts';
import { benchDatabase, buildIfNeeded, devToken, hostRequest, root, startAtriumProcess, startServerProcess, treeCpuSeconds, workDir } from './server.ts';
import { site } from './site.ts';

const CONCURRENCY = 8;
const ROUNDS = 5;
type Timed = { elapsed: number; cpu: number };
type Entry = { path: string; sha256: string; size: number; absolute: string };

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function entriesOf(files: LocalFile[]): Promise<Entry[]> {
  const entries: Entry[] = [];
  await eachLimit(files, CONCURRENCY, async (f) => {
    entries.push({ path: f.path, sha256: await sha256(f.absolute), size: f.size, absolute: f.absolute });
  });
  return entries.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const wire = (entries: Entry[]) => entries.map(({ path: p, sha256: s, size }) => ({ path: p, sha256: s, size }));
const seconds = (since: number) => (performance.now() - since) / 1000;

/** Atrium: plan, upload what is missing, commit. */
async function atriumPush(client: AtriumClient, spaceId: string, entries: Entry[]): Promise<number> {
  const started = performance.now();
  const params = { id: spaceId };
  const plan = await client.call(spacesApi.plan, { params, body: { files: wire(entries) } });
  const bySha = new Map(entries.map((e) => [e.sha256, e]));
  await eachLimit([...new Set(plan.missing)], CONCURRENCY, async (sha) => {
    const e = bySha.get(sha)!;
    await client.call(spacesApi.putBlob, { params: { id: spaceId, sha256: sha }, raw: fileBody(e.absolute, e.size) });
  });
  await client.call(spacesApi.commit, { params, body: { files: wire(entries) } });
  return seconds(started);
}

/** Baseline: upload the given files, then record the manifest. */
async function baselinePush(base: string, entries: Entry[], upload: Entry[]): Promise<number> {
  const client = createClient({ baseUrl: base });
  const started = performance.now();
  await eachLimit(upload, CONCURRENCY, async (e) => void (await client.request('PUT', `/blobs/${e.sha256}`, { raw: fileBody(e.absolute, e.size) })));
  await client.request('POST', '/manifest', { body: wire(entries) });
  return seconds(started);
}

/** GETs every path from `base` as `host`, CONCURRENCY at a time on kept-alive connections: the same client for both servers. */
async function downloadAll(base: string, host: string, paths: string[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const started = performance.now();
  try {
    await eachLimit(paths, CONCURRENCY, async (pathname) => {
      const { status } = await hostRequest(base, host, pathname, {}, agent);
      if (status !== 200) throw new Error(`GET ${host}${pathname} answered ${status}`);
    });
    return seconds(started);
  } finally {
    agent.destroy();
  }
}

/** The CLI as people install it: the built bundle (scripts/build-cli.ts), not the sources. */
function cliPush(cli: string, server: string, token: string, dir: string, args: string[] = []): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'push', dir, ...args], {
    env: { ...process.env, ATRIUM_URL: server, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: path.join(workDir, 'cli-config') },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`atrium push failed: ${result.stderr}`);
  return seconds(started);
}

export async function run({ quick, smoke, onStop }: BenchContext): Promise<void> {
  await mkdir(workDir, { recursive: true });
  buildIfNeeded();
  const target = await site(smoke ? 50 : quick ? 1_000 : 10_000);
  console.log(`site: ${target.files} files, ${(target.bytes / 1e6).toFixed(1)} MB (${path.relative(root, target.dir)})`);
  const entries = await entriesOf((await walk(target.dir)).files);

  const database = await benchDatabase('publish', onStop);
  const { base: atrium, pid: atriumPid } = await startAtriumProcess('atrium-publish', database.url, onStop);
  const { base: baseline, pid: baselinePid } = await startServerProcess('baseline-publish', 'bench/baseline-publish.ts', onStop, { DATA_DIR: path.join(workDir, 'baseline-store') });
  // Server CPU seconds a step cost (Atrium's own process, not PostgreSQL's): unlike the elapsed
  // time, it does not depend on what else the machine is doing.
  const timed = async (side: 'atrium' | 'baseline', step: () => Promise<number>) => {
    const pid = side === 'atrium' ? atriumPid : baselinePid;
    const before = treeCpuSeconds(pid);
    const elapsed = await step();
    const after = treeCpuSeconds(pid);
    return { elapsed, cpu: before === null || after === null ? NaN : after - before };
  };

  // First push: every file, in rounds that alternate between the two servers, each Atrium round
  // as a new person (so nothing is on the server for them); the round with the median ratio is
  // reported, since this machine's speed at file and socket work varies from minute to minute.
  const firstRounds: { atrium: Timed; baseline: Timed }[] = [];
  let client!: AtriumClient;
  let space!: { id: string; url: string };
  for (let round = 0; round < (quick || smoke ? 1 : ROUNDS); round++) {
    const token = await devToken(atrium, `bench-publisher-${round}`);
    client = createClient({ baseUrl: atrium, token });
    space = await client.call(spacesApi.create, { body: { workspace: `bench-publisher-${round}`, name: `bench ${Date.now()}` } });
    const baselineRound = await timed('baseline', () => baselinePush(baseline, entries, entries));
    const atriumRound = await timed('atrium', () => atriumPush(client, space.id, entries));
    firstRounds.push({ atrium: atriumRound, baseline: baselineRound });
    console.log(`first push, round ${round + 1}: Atrium ${atriumRound.elapsed.toFixed(2)} s, baseline ${baselineRound.elapsed.toFixed(2)} s, ratio ${(atriumRound.elapsed / baselineRound.elapsed).toFixed(2)}`);
  }
  const ratioOf = (r: { atrium: Timed; baseline: Timed }) => r.atrium.elapsed / r.baseline.elapsed;
  const first = [...firstRounds].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(firstRounds.length / 2)];

  // One changed file: a new index.html, ROUNDS times (once with --quick); the median is reported.
  const oneRounds: { atrium: Timed; baseline: Timed }[] = [];
  let next = entries;
  for (let round = 0; round < (quick || smoke ? 1 : ROUNDS); round++) {
    const changedFile = path.join(workDir, 'changed-index.html');
    await writeFile(changedFile, `<h1>Benchmark site</h1><p>${Date.now()} ${round}</p>`);
    const changed: Entry = { path: 'index.html', sha256: await sha256(changedFile), size: (await readFile(changedFile)).length, absolute: changedFile };
    next = entries.map((e) => (e.path === 'index.html' ? changed : e));
    const baselineRound = await timed('baseline', () => baselinePush(baseline, next, [changed]));
    oneRounds.push({ baseline: baselineRound, atrium: await timed('atrium', () => atriumPush(client, space.id, next)) });
  }
  const one = [...oneRounds].sort((a, b) => a.atrium.elapsed - b.atrium.elapsed)[Math.floor(oneRounds.length / 2)];
  console.log(`one changed file: Atrium ${oneRounds.map((r) => r.atrium.elapsed.toFixed(2)).join(', ')} s`);

  // Reading every file back, as visitors do: from the site's own host (sp-<id>.localhost:<port>).
  const served = new URL(space.url);
  const encode = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  const download = {
    baseline: await timed('baseline', () => downloadAll(baseline, 'localhost', next.map((e) => `/files/${encode(e.path)}`))),
    atrium: await timed('atrium', () => downloadAll(atrium, served.host, next.map((e) => `${served.pathname}${encode(e.path)}`))),
  };

  // The CLI on the same folder, for another person (so nothing is on the server yet).
  const cliToken = await devToken(atrium, 'bench-cli');
  const cliClient = createClient({ baseUrl: atrium, token: cliToken });
  const cliSpace = await cliClient.call(spacesApi.create, { body: { workspace: 'bench-cli', name: `bench cli ${Date.now()}` } });
  await rm(path.join(target.dir, '.atrium'), { recursive: true, force: true });
  const cli = path.join(await buildCli(), 'atrium.js');
  const cliCold = cliPush(cli, atrium, cliToken, target.dir, ['--space', cliSpace.id]);
  const cliWarm = cliPush(cli, atrium, cliToken, target.dir, ['--space', cliSpace.id]);

  const mb = target.bytes / 1e6;
  const rows = [
    { step: 'first push', ...first },
    { step: 'one changed file', ...one },
    { step: 'download every file', ...download },
  ].map((r) => ({
    step: r.step,
    atrium: r.atrium.elapsed,
    baseline: r.baseline.elapsed,
    ratio: Math.round((r.atrium.elapsed / r.baseline.elapsed) * 100) / 100,
    cpu: { atrium: r.atrium.cpu, baseline: r.baseline.cpu },
  }));
  console.log(`\n| step | Atrium s | baseline s | ratio | Atrium MB/s | server CPU s, Atrium / baseline |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const rate = r.step === 'one changed file' ? '' : (mb / r.atrium).toFixed(1);
    console.log(`| ${r.step} | ${r.atrium.toFixed(2)} | ${r.baseline.toFixed(2)} | ${r.ratio.toFixed(2)} | ${rate} | ${r.cpu.atrium.toFixed(2)} / ${r.cpu.baseline.toFixed(2)} |`);
  }
  console.log(`\n| atrium push (CLI) | s | ratio to the API-level first push |`);
  console.log('|---|---:|---:|');
  console.log(`| cold: hash everything, upload everything | ${cliCold.toFixed(2)} | ${(cliCold / first.atrium.elapsed).toFixed(2)} |`);
  console.log(`| warm: nothing changed | ${cliWarm.toFixed(2)} | ${(cliWarm / first.atrium.elapsed).toFixed(2)} |`);

  const file = path.join(workDir, 'results-publish.json');
  const report = {
    benchmark: 'publish',
    date: new Date().toISOString(),
    quick,
    site: { files: target.files, bytes: target.bytes },
    concurrency: CONCURRENCY,
    machine: { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
    database: database.kind,
    results: rows,
    firstPushRounds: firstRounds,
    oneChangedFileRounds: oneRounds,
    cli: { cold: cliCold, warm: cliWarm },
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nratio = Atrium time / baseline time. Written to ${path.relative(root, file)}.`);
}
