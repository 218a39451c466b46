// The CLI as people install it: built, packed, installed with `npm install -g`
// into an empty folder, and run from there (not from the checkout) against a
// real server: sign-in through the device flow, push and pull.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { packCli } from '../../scripts/build-cli.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';

const run = promisify(execFile);
const server = useFrontServer();

type Result = { code: number | null; stdout: string; stderr: string };

let work = '';
let installed = '';
let node22: string | null = null;
let node22Reason = '';

/** Runs the installed CLI with `node` (default: this Node), its own config folder, never a browser. */
function atrium(args: string[], options: { node?: string; env?: Record<string, string>; onStderr?: (text: string) => void } = {}): Promise<Result> {
  const child = spawn(options.node ?? process.execPath, [path.join(installed, 'dist/atrium.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: work, ATRIUM_CONFIG_DIR: path.join(work, 'config'), BROWSER: 'none', NODE_ENV: 'production', ...options.env },
    cwd: work,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    options.onStderr?.(stderr);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'atrium-pack-'));
  const tarball = await packCli(path.join(work, 'pack'));
  const prefix = path.join(work, 'prefix');
  // npm -g expects the prefix's lib folder to exist.
  await mkdir(path.join(prefix, 'lib'), { recursive: true });
  await run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { cwd: work });
  installed = path.join(prefix, 'lib/node_modules/@atrium/cli');
  // Node 22 is the oldest Node the package supports: run it too when npx has it cached (CI warms it).
  try {
    // As from a shell: not the npm_config_* settings of the npm that started the tests.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_'))) as NodeJS.ProcessEnv;
    const { stdout } = await run('npx', ['--offline', '-y', '--allow-scripts=node', 'node@22', '-p', 'process.execPath'], { cwd: work, env });
    node22 = stdout.trim().split('\n').pop()!;
  } catch (error) {
    node22Reason = `node@22 is not in the npm cache (run \`npx -y node@22 --version\` once): ${(error as { stderr?: string }).stderr?.trim().split('\n').pop() ?? (error as Error).message}`;
  }
}, 120_000);

describe('the packed CLI', () => {
  it('installs with nothing but itself, and prints its version on Node 24 (and 22)', async () => {
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(existsSync(path.join(installed, 'node_modules'))).toBe(false);
    expect((await readdir(installed)).sort()).toEqual(['dist', 'package.json']);
    const { version } = JSON.parse(await readFile('cli/package.json', 'utf8'));
    const bin = path.join(work, 'prefix/bin/atrium');
    const viaBin = await new Promise<Result>((resolve) => {
      const child = spawn(bin, ['--version'], { env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, NODE_ENV: 'production' } });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(viaBin).toMatchObject({ code: 0, stdout: `${version}\n` });
    if (node22) expect((await atrium(['--version'], { node: node22 })).stdout).toBe(`${version}\n`);
    else console.warn(`Skipped the Node 22 run: ${node22Reason}`);
  });

  it('signs in through the device flow, pushes a folder and pulls it back', { timeout: 90_000 }, async () => {
    const { token: webToken } = await signIn('packaged', 'web');
    let approved = false;
    const login = await atrium(['login', '--no-browser', '--label', 'packaged test', '--server', server.origin], {
      onStderr: (text) => {
        const code = text.match(/one-time code: (\S+)/)?.[1];
        if (!code || approved) return;
        approved = true;
        void fetch(`${server.origin}/v1/auth/cli/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${webToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ userCode: code, approve: true }),
        });
      },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toBe(`Signed in to ${server.origin} as @packaged.\n`);

    const status = await atrium(['auth', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ server: server.origin, handle: 'packaged', ok: true, current: true })]);

    const site = path.join(work, 'site');
    await mkdir(path.join(site, 'docs'), { recursive: true });
    await writeFile(path.join(site, 'index.html'), '<h1>Packaged</h1>');
    await writeFile(path.join(site, 'docs/a b.txt'), 'spaces in a name');
    const init = await atrium(['init', site, '--name', 'Packaged', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const spaceId = JSON.parse(init.stdout).id as string;

    // The hash workers are bundled too: the push reads every file through them.
    const push = await atrium(['push', site, '-m', 'from the package', '--json'], node22 ? { node: node22 } : {});
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout)).toMatchObject({ version: { number: 1 }, uploaded: 2 });

    const copy = path.join(work, 'copy');
    const pull = await atrium(['pull', copy, '--space', spaceId]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await readFile(path.join(copy, 'docs/a b.txt'), 'utf8')).toBe('spaces in a name');
    expect(await readFile(path.join(copy, 'index.html'), 'utf8')).toBe('<h1>Packaged</h1>');

    // CI: a token and a server from the environment, no saved sign-in, no prompt.
    const ci = await atrium(['versions', '--space', spaceId, '--json'], { env: { ATRIUM_URL: server.origin, ATRIUM_TOKEN: (await signIn('packaged')).token, ATRIUM_CONFIG_DIR: path.join(work, 'empty') } });
    expect(ci.code, ci.stderr).toBe(0);
    expect(JSON.parse(ci.stdout)[0]).toMatchObject({ number: 1, message: 'from the package' });
  });
});
