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
import { dnsLookup } from '@/lib/spaces/domains.ts';
import { startDnsStub } from '../dns-stub.ts';
import { cliTimeout } from './run-cli.ts';

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
    expect(stderr).toContain('warning: _redirects line 2 ignored: only Country= and Language= conditions are supported, not "q=:q"');
  });

  it('warns of the first 100 lines left out and counts the rest', { timeout: 60_000 }, async () => {
    const owner = await signIn('cli-rules-many');
    const space = await makeSpace(owner.token, 'cli-rules-many');
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-rules-'));
    await writeFile(path.join(dir, '_redirects'), '/a /b\n'.repeat(2250));
    const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: owner.token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
    const { stderr } = await run(process.execPath, ['cli/main.ts', 'push', dir, '--space', space.id], { env });
    expect(stderr.match(/^warning: _redirects line \d+ ignored: more than 2000 rules$/gm)).toHaveLength(100);
    expect(stderr).toContain('warning: 150 more lines ignored');
  });
});

describe('atrium alias and push --alias', () => {
  it('publishes to an alias, prints its address, and lists, moves and removes aliases', { timeout: cliTimeout(6) }, async () => {
    const owner = await signIn('cli-alias');
    const space = await makeSpace(owner.token, 'cli-alias');
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-alias-'));
    await writeFile(path.join(dir, 'index.html'), '<h1>Preview</h1>');
    const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: owner.token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
    const atrium = async (...args: string[]) => (await run(process.execPath, ['cli/main.ts', ...args, '--space', space.id], { env })).stdout;
    const host = `pr-7--${space.id.replace('_', '-')}.localhost`;
    expect(await atrium('push', dir, '--alias', 'pr-7')).toMatch(new RegExp(`Alias pr-7 now serves version 1:\\nhttp://${host}:\\d+/\\n$`));
    // Pushing the same folder again still moves the alias (to the latest version).
    expect(await atrium('push', dir, '--alias', 'staging')).toContain('Alias staging now serves version 1:');
    expect(await atrium('alias', 'list')).toMatch(/NAME\s+VERSION\s+URL[\s\S]*pr-7\s+1\s+http:\/\/pr-7--[\s\S]*staging\s+1/);
    const failed = await atrium('alias', 'set', 'pr-7', '5').catch((error: { stderr: string; code: number }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('There is no version 5: the latest is 1.');
    expect(await atrium('alias', 'rm', 'pr-7')).toContain('Removed alias pr-7');
    expect(JSON.parse(await atrium('alias', '--json')).map((a: { name: string }) => a.name)).toEqual(['staging']);
  });
});

describe('atrium domains', () => {
  it('adds a domain with the record to create, verifies it by that record, lists and removes it', { timeout: cliTimeout(4) }, async () => {
    const saved = { ...dnsLookup };
    const dns = await startDnsStub();
    dnsLookup.servers = [dns.server];
    try {
      const owner = await signIn('cli-domains');
      const space = await makeSpace(owner.token, 'cli-domains');
      const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: owner.token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
      const atrium = async (...args: string[]) => (await run(process.execPath, ['cli/main.ts', ...args, '--space', space.id], { env })).stdout;
      const added = await atrium('domains', 'add', 'www.cli-domains.example');
      expect(added).toMatch(/www\.cli-domains\.example is pending\. Prove it is yours with this DNS record:\n  _atrium-challenge\.www\.cli-domains\.example  TXT  "atrium-verify=[0-9a-f]{32}"\n[\s\S]*atrium domains verify www\.cli-domains\.example\nThe claim expires unverified on \d{4}-/);
      dns.txt.set('_atrium-challenge.www.cli-domains.example', [/"(atrium-verify=[0-9a-f]{32})"/.exec(added)![1]]);
      expect(await atrium('domains', 'verify', 'www.cli-domains.example')).toBe('www.cli-domains.example serves the space: https://www.cli-domains.example/\n');
      expect(await atrium('domains')).toMatch(/HOSTNAME\s+STATUS[\s\S]*www\.cli-domains\.example\s+active/);
      expect(await atrium('domains', 'rm', 'www.cli-domains.example')).toContain('Removed www.cli-domains.example');
    } finally {
      Object.assign(dnsLookup, saved);
      await dns.close();
    }
  });
});
