// `atrium push` says what a site's _redirects and _headers gave, and which
// lines were left out and why.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signIn } from '../helpers.ts';
import { makeSpace } from '../spaces/fixtures.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
const run = promisify(execFile);

describe('atrium push with rule files', () => {
  it('prints the rules taken and warns of each line left out, on stderr', { timeout: 60_000 }, async () => {
    const owner = await signIn('cli-rules');
    const space = await makeSpace(owner.token, 'cli-rules');
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-rules-'));
    await mkdir(path.join(dir, 'app'));
    await writeFile(path.join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(path.join(dir, 'app', 'index.html'), '<h1>App</h1>');
    await writeFile(path.join(dir, '_redirects'), '/app/*  /app/index.html  200\n/search /find 301 q=:q\n');
    await writeFile(path.join(dir, '_headers'), '/*\n  X-Robots-Tag: noindex\n');
    const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: owner.token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
    const { stdout, stderr } = await run(process.execPath, ['cli/main.ts', 'push', dir, '--space', space.id], { env });
    expect(stdout).toContain('Published version 1');
    expect(stdout).toContain('Rules: 1 from _redirects, 1 from _headers.');
    expect(stderr).toContain('warning: _redirects line 2 ignored: query-string, country and language conditions are not supported');
  });
});
