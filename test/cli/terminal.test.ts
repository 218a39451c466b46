// What terminal users expect of the CLI beyond its commands: several servers
// signed in at once, CI variables, shell completion.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetSignIn, readConfig, resolveSession, saveSignIn } from '../../cli/config.ts';

const run = promisify(execFile);
const saved = { ...process.env };

beforeEach(async () => {
  process.env.ATRIUM_CONFIG_DIR = await mkdtemp(path.join(tmpdir(), 'atrium-config-'));
  delete process.env.ATRIUM_URL;
  delete process.env.ATRIUM_TOKEN;
});
afterEach(() => {
  process.env = { ...saved };
});

describe('sign-ins', () => {
  it('keeps one per server; the last one signed in to is the default, and --server picks another', async () => {
    await saveSignIn('https://one.example', { token: 'atr_one', handle: 'ada' });
    await saveSignIn('https://two.example', { token: 'atr_two', handle: 'ada2' });
    expect(await resolveSession()).toMatchObject({ server: 'https://two.example', token: 'atr_two' });
    expect(await resolveSession('https://one.example/')).toMatchObject({ server: 'https://one.example', token: 'atr_one' });
    // A token is never sent to a server it was not issued by.
    expect((await resolveSession('https://three.example')).token).toBeUndefined();
    await forgetSignIn('https://two.example');
    expect(await resolveSession()).toMatchObject({ server: 'https://one.example', token: 'atr_one' });
  });

  it('reads the single-server file of earlier versions as one sign-in', async () => {
    await writeFile(path.join(process.env.ATRIUM_CONFIG_DIR!, 'config.json'), JSON.stringify({ server: 'http://old.example:3000/', token: 'atr_old', handle: 'old' }));
    expect(await readConfig()).toEqual({ current: 'http://old.example:3000', hosts: { 'http://old.example:3000': { token: 'atr_old', handle: 'old' } } });
    expect(await resolveSession()).toMatchObject({ server: 'http://old.example:3000', token: 'atr_old' });
  });

  it('ATRIUM_URL and ATRIUM_TOKEN win over the file and are never saved in it', async () => {
    await saveSignIn('https://one.example', { token: 'atr_one' });
    process.env.ATRIUM_URL = 'https://ci.example';
    process.env.ATRIUM_TOKEN = 'atr_ci';
    expect(await resolveSession()).toMatchObject({ server: 'https://ci.example', token: 'atr_ci', tokenSource: 'env' });
    expect(await readFile(path.join(process.env.ATRIUM_CONFIG_DIR!, 'config.json'), 'utf8')).not.toContain('atr_ci');
  });
});

describe('atrium completion', () => {
  it('completes commands and subcommands in bash from the command tree', async () => {
    const { stdout: script } = await run(process.execPath, ['cli/main.ts', 'completion', 'bash']);
    const complete = async (...words: string[]) =>
      (await run('bash', ['-c', `${script}\nCOMP_WORDS=(${words.map((w) => `"${w}"`).join(' ')}); COMP_CWORD=${words.length - 1}; _atrium; echo "\${COMPREPLY[*]}"`])).stdout.trim().split(' ');
    expect(await complete('atrium', 'au')).toEqual(['auth']);
    expect(await complete('atrium', 'auth', '')).toEqual(expect.arrayContaining(['status', 'switch']));
    expect(await complete('atrium', 'push', '--')).toEqual(expect.arrayContaining(['--message', '--dry-run', '--space', '--json']));
  });

  it('prints zsh and fish scripts, and refuses another shell with a usage error', async () => {
    expect((await run(process.execPath, ['cli/main.ts', 'completion', 'fish'])).stdout).toContain("complete -c atrium -n '__fish_use_subcommand' -a 'push'");
    expect((await run(process.execPath, ['cli/main.ts', 'completion', 'zsh'])).stdout).toMatch(/^#compdef atrium/);
    const refused = await run(process.execPath, ['cli/main.ts', 'completion', 'tcsh']).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('Pass bash, zsh or fish') });
  });
});
