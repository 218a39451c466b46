// The export runs on its own: unpacked into an empty folder, `npm start`
// serves the app's pages and its data (node:http, node:sqlite), offline.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFrontServer } from '../server.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { liveAppUrl } from '@/lib/spaces/hosts.ts';
import { World } from '../http/world.ts';
import { bookClub, writeRoom } from './helpers.ts';

const server = useFrontServer();
let w: World;
const folders: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  w = await new World(server.origin, 'ax').build();
}, 60_000);

afterAll(() => {
  // The whole group: npm starts the app's server through a shell, which would outlive npm alone.
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function download(appId: string, as = w.people.owner) {
  const answer = await fetch(`${server.origin}/v1/apps/${appId}/export`, { headers: { authorization: `Bearer ${as.token}` } });
  return { status: answer.status, type: answer.headers.get('content-type'), bytes: Buffer.from(await answer.arrayBuffer()) };
}

function unpack(zip: Buffer): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'atrium-export-'));
  folders.push(folder);
  writeFileSync(path.join(folder, 'app.zip'), zip);
  execFileSync('unzip', ['-q', 'app.zip'], { cwd: folder });
  return folder;
}

async function start(folder: string): Promise<string> {
  // Nothing but Node on the PATH's npm: no network, no install.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: folder,
    env: { PATH: process.env.PATH, HOME: folder, PORT: '0', npm_config_offline: 'true' } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const started = Date.now();
  while (!/listening on (http:\/\/localhost:\d+)\//.test(output)) {
    if (Date.now() - started > 20_000 || child.exitCode !== null) throw new Error(`the exported app did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return /listening on (http:\/\/localhost:\d+)\//.exec(output)![1].replace('localhost', '127.0.0.1');
}

describe('export', () => {
  it('is a zip of a project whose npm start serves the live pages and the live data, and takes visitor rows', async () => {
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug } });
    await writeRoom(room.id, bookClub());
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} });
    await w.must(200, 'POST', `/v1/apps/${app.id}/live`, { as: w.people.owner, body: { access: 'public', copyData: true } });
    // A row added in the live app, with a quote that the SQL dump must escape.
    const added = await rawRequest(onPort(liveAppUrl(app.slug), server.origin), 'POST', '/_api/tables/sign_up', {
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ values: { Name: "O'Brien", Email: 'ob@example.com' } })),
    });
    expect(added.status).toBe(201);

    const { status, type, bytes } = await download(app.id);
    expect(status).toBe(200);
    expect(type).toBe('application/zip');
    const folder = unpack(bytes);
    const root = path.join(folder, app.slug);
    expect(readdirSync(root).sort()).toEqual(['README.md', 'data.sql', 'package.json', 'public', 'server.js']);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))).toMatchObject({ scripts: { start: 'node server.js' } });
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).toBeUndefined();
    const sql = readFileSync(path.join(root, 'data.sql'), 'utf8');
    expect(sql).toContain(`CREATE TABLE "books"`);
    expect(sql).toContain(`'O''Brien'`);

    const origin = await start(root);
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Book club');
    expect(await (await fetch(`${origin}/books/`)).text()).toContain('Dune');
    expect(await (await fetch(`${origin}/_api/tables/sign_up`)).json()).toEqual({
      columns: ['Name', 'Email'],
      rows: [
        { Name: 'Ada', Email: 'ada@example.com' },
        { Name: "O'Brien", Email: 'ob@example.com' },
      ],
    });
    const post = await fetch(`${origin}/_api/tables/sign_up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values: { Name: 'Grace', Email: 'g@example.com' } }) });
    expect(post.status).toBe(201);
    expect((await (await fetch(`${origin}/_api/tables/sign_up`)).json()).rows).toHaveLength(3);
    expect((await fetch(`${origin}/_api/tables/books`, { method: 'POST', body: '{}' })).status).toBe(403);
    expect((await fetch(`${origin}/../../etc/passwd`)).status).toBe(404);
  }, 60_000);

  it('exports the preview with its first rows before the app goes live, and needs manage', async () => {
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug } });
    await writeRoom(room.id, bookClub());
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} });
    expect((await download(app.id, w.people.member)).status).toBe(403);
    const { status, bytes } = await download(app.id);
    expect(status).toBe(200);
    const sql = readFileSync(path.join(unpack(bytes), app.slug, 'data.sql'), 'utf8');
    expect(sql).toContain(`'Dune'`);
  });
});
