// What a large `_redirects` costs a request, counted in work rather than time
// (issue 32): a path no rule matches is answered without trying the rules one
// by one, however many sites' rules were served before it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();

/** 2,000 rules (the limit), none with a placeholder, each under a prefix of its own. */
const bigRules = (site: number) => Array.from({ length: 2000 }, (_, i) => `/s${site}-section-${i}/*  /new/${i}/:splat  301`).join('\n');

async function publish(handle: string, redirects: string) {
  const owner = await signIn(handle, 'web');
  const space = await makeSpace(owner.token, handle);
  await push(owner.token, space.id, { 'index.html': '<h1>Home</h1>', _redirects: redirects });
  const site = onPort(siteUrl(space.id), server.origin);
  return (path: string) => rawRequest(site, 'GET', path);
}

/** Regular-expression executions while `task` runs: every match, test, replace and split goes through `exec`. */
async function regexRuns(task: () => Promise<unknown>): Promise<number> {
  const exec = vi.spyOn(RegExp.prototype, 'exec');
  try {
    await task();
    return exec.mock.calls.length;
  } finally {
    exec.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('a large _redirects file', () => {
  it('costs an unmatched request no more matching work than a one-rule file, with six such sites served in turn', async () => {
    const small = await publish('cost-small', '/old /new 301\n');
    // 12,000 patterns in all: more than a process-wide cache of 10,000 holds.
    const big = [];
    for (let site = 0; site < 6; site++) big.push(await publish(`cost-big-${site}`, bigRules(site)));
    const unmatched = '/nothing/here';
    // A first round loads every version; the second is measured.
    for (const get of [small, ...big]) expect((await get(unmatched)).status).toBe(404);
    const smallRuns = await regexRuns(() => small(unmatched));
    for (const get of big) {
      const runs = await regexRuns(async () => expect((await get(unmatched)).status).toBe(404));
      // The same request on the same server: only the rules differ, so the work should not.
      expect(runs - smallRuns).toBeLessThan(50);
    }
  });
});
