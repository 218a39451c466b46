// docs/deploy.md shows the HAProxy configuration the cluster harness writes
// (scripts/cluster/haproxy.ts), so what the cluster test proves is what
// operators run: the same lines but for comments, addresses and ports. Its
// margins hold: a check waits longer than a node's own bound on /readyz, and a
// draining node serves until the balancer has taken it out.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_TIMEOUT_MS } from '@/lib/ops/health.ts';
import { CHECK_TIMEOUT_SECONDS, DRAIN_NOTICE_SECONDS, HEALTH_CHECK, haproxyConfig } from '@/scripts/cluster/haproxy.ts';

const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
const guideConfig = /```haproxy\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
const harnessConfig = haproxyConfig({
  port: 8080,
  web: [1, 2, 3].map((i) => ({ name: `web-${i}`, port: 3000 + i })),
  realtime: [1, 2].map((i) => ({ name: `rt-${i}`, port: 4000 + i })),
});

/** The configuration's lines without comments, blank lines, listen addresses or servers' addresses. */
const essentials = (config: string) =>
  config
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .map((line) => line.replace(/^bind .*/, 'bind <address>').replace(/^(server \S+) \S+/, '$1 <address>'));

describe('docs/deploy.md', () => {
  it('shows the HAProxy configuration the cluster harness writes', () => {
    expect(guideConfig).not.toBe('');
    expect(essentials(guideConfig)).toEqual(essentials(harnessConfig));
  });

  it('gives the DRAIN_NOTICE_SECONDS the harness sets, longer than the balancer takes to notice a drain', () => {
    expect(guide).toContain(`DRAIN_NOTICE_SECONDS=${DRAIN_NOTICE_SECONDS}`);
    expect(DRAIN_NOTICE_SECONDS * 1000).toBeGreaterThanOrEqual(HEALTH_CHECK.fall * HEALTH_CHECK.intervalMs + 1000);
    expect(CHECK_TIMEOUT_SECONDS * 1000).toBeGreaterThan(CHECK_TIMEOUT_MS);
  });

  it.skipIf(spawnSync('haproxy', ['-v']).status !== 0)("is a configuration HAProxy accepts, as the guide shows it and as the harness writes it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-haproxy-'));
    try {
      for (const [name, config] of [['guide.cfg', guideConfig], ['harness.cfg', harnessConfig]]) {
        const file = path.join(dir, name);
        await writeFile(file, config);
        const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
        expect(check.status, `${name}: ${check.stdout}${check.stderr}`).toBe(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
