// The segment trie that matches a site's rules (lib/spaces/site-rules.ts)
// against the regular expressions it replaced, kept here as the reference:
// for any rules and any path, the same rule wins with the same target, and
// the same header rules apply. Also the placeholder caps, and the cache that
// keeps versions' compiled rules (an LRUCache by weight).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { siteRulesCompiled } from '@/lib/core/metrics.ts';
import { versionSite } from '@/lib/spaces/publishing.ts';
import { compileRules, headersFor, matchRedirect, parseHeaders, parseRedirects, type RedirectRule } from '@/lib/spaces/site-rules.ts';
import { signIn } from '../helpers.ts';
import { makeSpace, push } from './fixtures.ts';

/** The matcher as it was: one regular expression per pattern, and a retry with a slash for "/x/*"; `flags` "i" for _headers. */
function referenceBindings(pattern: string, path: string, flags = ''): Record<string, string> | null {
  const names: string[] = [];
  const splat = pattern.endsWith('*');
  const body = (splat ? pattern.slice(0, -1) : pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern)
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':') && segment.length > 1) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  if (splat) names.push('splat');
  const regex = new RegExp(`^${body}${splat ? '(.*)' : '/?'}$`, flags);
  const match = regex.exec(path) ?? (pattern.endsWith('/*') && !path.endsWith('/') ? regex.exec(`${path}/`) : null);
  if (!match) return null;
  // A name's first value, as Netlify binds; the star's value is always the splat.
  const bound = Object.fromEntries(names.map((name, i) => [name, match[i + 1]]).reverse());
  return splat ? { ...bound, splat: match[names.length] } : bound;
}

function referenceRedirect(rules: RedirectRule[], path: string) {
  for (const rule of rules) {
    const bound = referenceBindings(rule.from, path);
    if (bound) return { rule, target: rule.to.replace(/:([A-Za-z_]\w*)/g, (whole, name: string) => (name in bound ? bound[name] : whole)) };
  }
  return null;
}

// Few distinct segments, so that patterns and paths meet often; empty ones too ("//").
const literal = fc.constantFrom('a', 'b', 'ab', 'a.b', 'x(y)', '');
const segment = fc.oneof(literal, fc.constantFrom(':x', ':y', ':splat', ':x'));
const pattern = fc
  .tuple(fc.array(segment, { maxLength: 4 }), fc.constantFrom('', '/', '/*', '*', 'b*', ':y*', '//'))
  .map(([segments, end]) => (`/${segments.join('/')}${segments.length ? end : end.replace(/^\//, '')}` || '/').replace(/^\/\/+/, '/'));
const path = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'ab', 'abc', 'a.b', 'x(y)', 'bb', ''), { maxLength: 6 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.join('/')}${slash && segments.length ? '/' : ''}`);
const rules = fc.array(
  fc.record({ from: pattern, to: fc.constantFrom('/t/:x/:y/:splat', '/to/:splat', '/fixed', '/:x.html', '/:z') }),
  { minLength: 1, maxLength: 12 },
);

describe('matching a site\'s rules', () => {
  it('picks the same redirect with the same target as the regular expressions did, for any rules and path', () => {
    fc.assert(
      fc.property(rules, fc.array(path, { minLength: 1, maxLength: 8 }), (list, paths) => {
        const redirects = list.map(({ from, to }) => ({ from, to, status: 301 as const, force: false }));
        const compiled = compileRules({ redirects, headers: [] });
        for (const asked of paths) expect(matchRedirect(compiled, asked)).toEqual(referenceRedirect(redirects, asked));
      }),
      { numRuns: 2000 },
    );
  });

  it('applies the same header rules, in the file\'s order, whatever the case of either', () => {
    const anyCase = (text: fc.Arbitrary<string>) => fc.tuple(text, fc.constantFrom('lower', 'upper')).map(([t, c]) => (c === 'upper' ? t.toUpperCase() : t));
    fc.assert(
      fc.property(fc.array(anyCase(pattern), { minLength: 1, maxLength: 12 }), anyCase(path), (patterns, asked) => {
        const headers = patterns.map((p, i) => ({ path: p, headers: [['X-Rule', String(i)]] as [string, string][] }));
        const expected = patterns.flatMap((p, i) => (referenceBindings(p, asked, 'i') ? [String(i)] : []));
        expect(headersFor(compileRules({ redirects: [], headers }), asked).get('x-rule')).toBe(expected.length ? expected.join(', ') : undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('binds placeholders by their own names, not those every object inherits', () => {
    const compiled = compileRules({ redirects: [{ from: '/a/:x', to: '/b/:x/:constructor/:toString', status: 301, force: false }], headers: [] });
    expect(matchRedirect(compiled, '/a/1')?.target).toBe('/b/1/:constructor/:toString');
  });
});

describe('placeholder caps', () => {
  it('leave out, and report, a rule with more than 16 placeholders and those past 1,000 in a file', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `:p${i}`).join('/');
    expect(parseRedirects(`/${many(16)} /ok\n/${many(17)} /too-many\n`).ignored).toEqual([{ file: '_redirects', line: 2, reason: 'more than 16 placeholders in one rule' }]);
    const file = Array.from({ length: 101 }, (_, i) => `/r${i}/${many(10)} /t${i}`).join('\n');
    const parsed = parseRedirects(file);
    expect(parsed.rules).toHaveLength(100);
    expect(parsed.ignored).toEqual([{ file: '_redirects', line: 101, reason: 'more than 1000 placeholders in the file' }]);
    expect(parseHeaders(`/${many(17)}\n  X-A: b\n`).ignored[0]).toEqual({ file: '_headers', line: 1, reason: 'more than 16 placeholders in one rule' });
    // A version committed before the caps keeps only what they allow.
    const stored = Array.from({ length: 101 }, (_, i) => ({ from: `/r${i}/${many(10)}`, to: `/t${i}`, status: 301 as const, force: false }));
    expect(compileRules({ redirects: stored, headers: [] }).redirects).toHaveLength(100);
  });

});

describe('the versions\' cache', () => {
  it('compiles a version\'s rules once while it is in use', async () => {
    const owner = await signIn('rules-compile-once', 'web');
    const space = await makeSpace(owner.token, 'rules-compile-once');
    await push(owner.token, space.id, { 'index.html': 'x', _redirects: '/a /b\n' });
    const compiled = async () => (await siteRulesCompiled.get()).values[0]?.value ?? 0;
    const before = await compiled();
    const first = await versionSite(space.id, 1);
    for (let i = 0; i < 5; i++) expect(await versionSite(space.id, 1)).toBe(first);
    expect((await compiled()) - before).toBeLessThanOrEqual(1);
    expect(first?.rules?.redirects).toEqual([{ from: '/a', to: '/b', status: 301, force: false }]);
  });

  it('compiles a version once for requests that arrive together, before it is kept', async () => {
    const owner = await signIn('rules-compile-together', 'web');
    const space = await makeSpace(owner.token, 'rules-compile-together');
    await push(owner.token, space.id, { 'index.html': 'x', _redirects: '/a /b\n' });
    await push(owner.token, space.id, { 'index.html': 'y', _redirects: '/c /d\n' });
    const compiled = async () => (await siteRulesCompiled.get()).values[0]?.value ?? 0;
    const before = await compiled();
    // Version 2 has not been read yet: twenty visitors ask for it at once.
    const sites = await Promise.all(Array.from({ length: 20 }, () => versionSite(space.id, 2)));
    expect(new Set(sites).size).toBe(1);
    expect((await compiled()) - before).toBe(1);
  });
});
