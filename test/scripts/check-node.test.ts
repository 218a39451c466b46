// A fresh machine with too old a Node.js: `npm install`, `npm start`,
// `npm run dev` and `npm test` must stop with one line saying what is needed,
// not with an ERR_UNKNOWN_FILE_EXTENSION stack trace from a .ts script.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/check-node.cjs');
const message = (version: string) =>
  `Atrium needs Node.js 24.16 or newer (this is ${version}): install it from https://nodejs.org, or with nvm run \`nvm install 24 && nvm use 24\`, then run the command again.`;

function versionOf(node: string): string | null {
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : null;
}

// A Node.js older than 24.16 on this machine (Debian's package is 20.x), to run
// the check for real rather than with a pretended version.
const oldNode = (() => {
  const candidates = new Set(['/usr/bin/node', '/usr/local/bin/node', '/bin/node']);
  const which = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' });
  for (const line of (which.stdout ?? '').split('\n')) if (line.trim()) candidates.add(line.trim());
  for (const node of candidates) {
    const version = versionOf(node);
    if (!version) continue;
    const [major, minor] = version.split('.').map(Number);
    if (major < 24 || (major === 24 && minor < 16)) return { node, version };
  }
  return null;
})();

const noOldNode = 'no Node.js older than 24.16 on this machine to run the check with';

// A folder whose `node` is the old one, put first on PATH so that npm's
// scripts run with it.
const oldBin = mkdtempSync(path.join(tmpdir(), 'atrium-old-node-'));
if (oldNode) symlinkSync(oldNode.node, path.join(oldBin, 'node'));
afterAll(() => rmSync(oldBin, { recursive: true, force: true }));

describe('the Node.js version check', () => {
  it.skipIf(!oldNode)(`stops an old Node.js with one line and exit code 1 (skipped when ${noOldNode})`, () => {
    const result = spawnSync(oldNode!.node, [script], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${message(oldNode!.version)}\n`);
  });

  it.skipIf(!oldNode)(`runs first in npm start, npm run dev, npm test and postinstall (skipped when ${noOldNode})`, () => {
    for (const name of ['start', 'dev', 'test', 'postinstall']) {
      const result = spawnSync('npm', ['run', '--silent', name], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${oldBin}${path.delimiter}${process.env.PATH}` },
      });
      expect(result.status, name).not.toBe(0);
      const output = `${result.stdout}${result.stderr}`;
      expect(output, name).toContain(message(oldNode!.version));
      expect(output, name).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
      expect(output, name).not.toMatch(/^\s+at /m);
    }
  });

  it.skipIf(!oldNode)(`makes npm ci refuse before downloading anything (skipped when ${noOldNode})`, () => {
    // A copy of what npm reads, so that the shared node_modules is never touched.
    const copy = mkdtempSync(path.join(tmpdir(), 'atrium-old-node-install-'));
    try {
      for (const name of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(path.join(root, name), path.join(copy, name));
      const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: copy,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${oldBin}${path.delimiter}${process.env.PATH}` },
      });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('EBADENGINE');
      expect(result.stderr).toContain('Required: {"node":">=24.16"}');
      expect(existsSync(path.join(copy, 'node_modules'))).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('says nothing and lets the command go on under this Node.js', () => {
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
  });

  it('compares major and minor numbers, not text', () => {
    const check = (version: string) =>
      spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, ATRIUM_CHECK_NODE_VERSION: version } });
    for (const version of ['24.15.9', '22.22.0', '9.11.2', 'v20.20.2']) {
      const result = check(version);
      expect(result.status, version).toBe(1);
      expect(result.stderr, version).toBe(`${message(version.replace(/^v/, ''))}\n`);
    }
    for (const version of ['24.16.0', '24.100.0', '25.0.0', '100.1.0']) {
      expect(check(version).status, version).toBe(0);
    }
  });
});
