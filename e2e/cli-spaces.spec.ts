import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { Cli } from './cli.ts';

/** A token of a new person each run, so that no earlier run's blobs or spaces count. */
async function newPerson(request: APIRequestContext, name: string): Promise<{ handle: string; env: Record<string, string> }> {
  const handle = `${name}-${randomBytes(3).toString('hex')}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  return { handle, env: { ATRIUM_TOKEN: token } };
}

function folder(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'atrium-site-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

function listFiles(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile() && !path.relative(root, e.parentPath).startsWith('.atrium'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

test('init, push, re-push one change, and pull back byte for byte', async ({ request, baseURL }) => {
  const { handle, env } = await newPerson(request, 'cli-publisher');
  const cli = new Cli(baseURL!);
  const site = folder({
    'index.html': '<h1>Hello</h1>',
    'css/site.css': 'body { color: navy }',
    'img/logo.bin': randomBytes(200_000),
    '.env': 'SECRET=never-pushed',
  });

  const init = await cli.run(['init', site, '--name', 'CLI site'], env);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain('Linked');

  const dry = await cli.run(['push', site, '--dry-run'], env);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain('+ index.html');
  expect(dry.stdout).toContain('3 added, 0 changed, 0 removed, 0 unchanged');

  const first = JSON.parse((await cli.run(['push', site, '-m', 'First', '--json'], env)).stdout);
  expect(first.version.number).toBe(1);
  expect(first.uploaded).toBe(3);
  expect(first.diff.added.sort()).toEqual(['css/site.css', 'img/logo.bin', 'index.html']);

  writeFileSync(path.join(site, 'index.html'), '<h1>Hello again</h1>');
  const second = await cli.run(['push', site, '-m', 'Second'], env);
  expect(second.code, second.stderr).toBe(0);
  expect(second.stdout).toContain('Published version 2 (0 added, 1 changed, 0 removed, 2 unchanged; uploaded 1 of 3 files)');

  const unchanged = await cli.run(['push', site], env);
  expect(unchanged.stdout).toContain('Nothing changed');

  const spaceId = JSON.parse(readFileSync(path.join(site, '.atrium/space.json'), 'utf8')).spaceId;
  const copy = mkdtempSync(path.join(tmpdir(), 'atrium-pull-'));
  const pull = await cli.run(['pull', copy, '--space', spaceId], env);
  expect(pull.code, pull.stderr).toBe(0);
  expect(pull.stdout).toContain('Pulled version 2 (3 files)');
  expect(listFiles(copy)).toEqual(['css/site.css', 'img/logo.bin', 'index.html']);
  for (const file of listFiles(copy)) expect(readFileSync(path.join(copy, file)).equals(readFileSync(path.join(site, file)))).toBe(true);

  const old = mkdtempSync(path.join(tmpdir(), 'atrium-pull-'));
  await cli.run(['pull', old, '--space', spaceId, '--at', '1'], env);
  expect(readFileSync(path.join(old, 'index.html'), 'utf8')).toBe('<h1>Hello</h1>');

  const versions = await cli.run(['versions', '--space', spaceId], env);
  expect(versions.stdout).toMatch(new RegExp(`2 .* @${handle} .* Second`));
  const history = await cli.run(['history', 'index.html', '--space', spaceId], env);
  expect(history.stdout).toMatch(/2\s+changed/);
  expect(history.stdout).toMatch(/1\s+added/);
});

test('an interrupted push finishes by running it again, uploading only what is left', async ({ request, baseURL }) => {
  const { env } = await newPerson(request, 'cli-resumer');
  const cli = new Cli(baseURL!);
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < 120; i++) files[`data/file-${i}.bin`] = randomBytes(100_000);
  const site = folder(files);
  expect((await cli.run(['init', site, '--name', 'Resumable'], env)).code).toBe(0);

  const interrupted = cli.start(['push', site], env);
  await interrupted.waitFor(/Uploading: \d+\/120 files/);
  interrupted.kill();
  expect((await interrupted.done).code).not.toBe(0);

  const resumed = JSON.parse((await cli.run(['push', site, '--json'], env)).stdout);
  expect(resumed.version.number).toBe(1);
  expect(resumed.diff.added).toHaveLength(120);
  expect(resumed.uploaded).toBeGreaterThan(0);
  expect(resumed.uploaded).toBeLessThan(120);
});

test('an unknown space is a clear error with the next step', async ({ request, baseURL }) => {
  const { env } = await newPerson(request, 'cli-lost');
  const cli = new Cli(baseURL!);
  const site = folder({ 'index.html': 'x' });
  const result = await cli.run(['push', site, '--space', 'sp_doesnotexist'], env);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^Error: .+\nCheck the name or id/);
  const unlinked = await cli.run(['push', site], env);
  expect(unlinked.code).toBe(1);
  expect(unlinked.stderr).toContain('not linked');
  expect(unlinked.stderr).toContain('atrium init');
});

test('uploads: add, list, fetch back, link, remove', async ({ request, baseURL }) => {
  const { env } = await newPerson(request, 'cli-uploader');
  const cli = new Cli(baseURL!);
  const site = folder({ 'index.html': 'x', 'report.pdf': randomBytes(50_000) });
  expect((await cli.run(['init', site, '--name', 'With uploads'], env)).code).toBe(0);
  const spaceId = JSON.parse(readFileSync(path.join(site, '.atrium/space.json'), 'utf8')).spaceId;

  const added = JSON.parse((await cli.run(['uploads', 'add', path.join(site, 'report.pdf'), '--space', spaceId, '--json'], env)).stdout);
  expect(added).toMatchObject({ name: 'report.pdf', size: 50_000 });
  expect((await cli.run(['uploads', '--space', spaceId], env)).stdout).toContain('report.pdf');

  const copy = path.join(mkdtempSync(path.join(tmpdir(), 'atrium-upload-')), 'copy.pdf');
  expect((await cli.run(['uploads', 'get', added.id, '--space', spaceId, '-o', copy], env)).code).toBe(0);
  expect(readFileSync(copy).equals(readFileSync(path.join(site, 'report.pdf')))).toBe(true);
  expect((await cli.run(['uploads', 'get', added.id, '--space', spaceId, '--link'], env)).stdout).toMatch(new RegExp(`^${baseURL}/dl/`));

  expect((await cli.run(['uploads', 'rm', added.id, '--space', spaceId], env)).code).toBe(0);
  expect((await cli.run(['uploads', '--space', spaceId], env)).stdout).toContain('No uploads');
});

test('workspaces: create, list, invite by handle, members', async ({ request, baseURL }) => {
  const owner = await newPerson(request, 'cli-owner');
  const guest = await newPerson(request, 'cli-guest');
  const cli = new Cli(baseURL!);
  const slug = `team-${randomBytes(3).toString('hex')}`;
  expect((await cli.run(['workspaces', 'create', slug, '--name', 'CLI Team'], owner.env)).code).toBe(0);
  expect((await cli.run(['workspaces'], owner.env)).stdout).toMatch(new RegExp(`${slug}\\s+CLI Team\\s+owner`));
  const invite = await cli.run(['workspaces', 'invite', slug, `@${guest.handle}`, '--role', 'admin'], owner.env);
  expect(invite.code, invite.stderr).toBe(0);
  const members = await cli.run(['workspaces', 'members', slug], owner.env);
  expect(members.stdout).toMatch(new RegExp(`@${guest.handle}\\s.*admin\\s+invited`));
  const stranger = await cli.run(['workspaces', 'members', slug], guest.env);
  expect(stranger.code).toBe(1);
  expect(stranger.stderr).toContain('Check the name or id');
});
