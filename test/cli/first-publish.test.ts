// The dashboard's "Publish your first site" commands, run as printed by a shell from the folder
// where they are typed, on a fresh account: init links ./site to a new space and names the push
// that publishes it; the push publishes it. Only the sign-in is the environment's (ATRIUM_TOKEN).
// The README shows the same commands right after running and signing in.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { firstPublishCommands } from '@/lib/web/cli-commands.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { cliTimeout } from './run-cli.ts';

const run = promisify(execFile);
const server = useFrontServer();

/** A folder whose `atrium` runs this checkout's CLI, as the installed package would; put first on PATH. */
async function atriumOnPath(): Promise<string> {
  const bin = await mkdtemp(path.join(tmpdir(), 'atrium-bin-'));
  await writeFile(path.join(bin, 'atrium'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.resolve('cli/main.ts'))} "$@"\n`);
  await chmod(path.join(bin, 'atrium'), 0o755);
  return bin;
}

it('the first-publish commands work as printed from the folder that holds the site', { timeout: cliTimeout(3) }, async () => {
  const { token } = await signIn('first-publisher');
  const here = await mkdtemp(path.join(tmpdir(), 'atrium-first-publish-'));
  await mkdir(path.join(here, 'site'));
  await writeFile(path.join(here, 'site', 'index.html'), '<h1>Hello</h1>\n');
  const env = { ...process.env, PATH: `${await atriumOnPath()}${path.delimiter}${process.env.PATH}`, ATRIUM_URL: server.origin, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
  const shell = async (command: string) => (await run('bash', ['-c', command], { cwd: here, env })).stdout;

  const commands = firstPublishCommands(server.origin).map(([, command]) => command);
  expect(commands.slice(1, 2)).toEqual([`atrium login --server ${server.origin}`]);
  const [init, push] = commands.slice(2);
  expect(await shell(init)).toContain('Publish it with `atrium push ./site`.');
  expect(await shell(push)).toContain('version 1');

  const { spaceId } = JSON.parse(await readFile(path.join(here, 'site', '.atrium', 'space.json'), 'utf8'));
  const versions = await (await fetch(`${server.origin}/v1/spaces/${spaceId}/versions`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(versions.versions.map((v: { number: number; message: string | null }) => [v.number, v.message])).toEqual([[1, 'First version']]);
});

it('init names the folder to push as it was typed, quoted so that the shell runs it as printed', { timeout: cliTimeout(4) }, async () => {
  const { token } = await signIn('first-publisher-2');
  const here = await mkdtemp(path.join(tmpdir(), 'atrium-first-publish-'));
  const env = { ...process.env, PATH: `${await atriumOnPath()}${path.delimiter}${process.env.PATH}`, ATRIUM_URL: server.origin, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
  const shell = async (command: string, cwd = here) => (await run('bash', ['-c', command], { cwd, env })).stdout;

  // A name the shell would otherwise split, expand or run.
  const name = "Jo's site $(touch pwned) *";
  await mkdir(path.join(here, name));
  await writeFile(path.join(here, name, 'index.html'), '<h1>Jo</h1>\n');
  const said = await run(process.execPath, [path.resolve('cli/main.ts'), 'init', name], { cwd: here, env });
  const printed = /Publish it with `(.+)`\.$/m.exec(said.stdout)![1];
  expect(printed).toBe(`atrium push 'Jo'\\''s site $(touch pwned) *'`);
  expect(await shell(printed)).toContain('version 1');
  expect(existsSync(path.join(here, 'pwned'))).toBe(false);

  // Typed without a folder, init links the current one: a bare push, typed there, publishes it.
  await mkdir(path.join(here, 'current'));
  expect(await shell('atrium init', path.join(here, 'current'))).toContain('Publish it with `atrium push`.');
});

it("the README's first screen is run it, sign in, then the command line with the dashboard's commands", async () => {
  const readme = await readFile(path.resolve('README.md'), 'utf8');
  const sections = readme.split(/^## /m).slice(1);
  expect(sections.slice(0, 3).map((section) => section.slice(0, section.indexOf('\n')))).toEqual(['Run it', 'Sign in on a fresh install', 'The command-line tool']);
  const commandLine = sections[2];
  for (const [, command] of firstPublishCommands('http://localhost:3000')) {
    for (const part of command.split(' && ')) expect(commandLine).toContain(part);
  }
});
