// Matches a /v1 path against the route table as Next's file router does
// (static segments before [param] before [...rest]), so that unknown paths and
// wrong methods are answered with the error envelope before Next's bare 404/405.
import type { Endpoint, Method } from '../schemas/endpoint.ts';

type Segment = { kind: 'static'; value: string } | { kind: 'param' } | { kind: 'rest' };
type Pattern = { segments: Segment[]; methods: Set<Method> };

function parse(path: string): Segment[] {
  return path.split('/').filter(Boolean).map((part): Segment => {
    if (/^\{\w+\.\.\.\}$/.test(part)) return { kind: 'rest' };
    if (/^\{\w+\}$/.test(part)) return { kind: 'param' };
    return { kind: 'static', value: part };
  });
}

const RANK = { static: 0, param: 1, rest: 2 } as const;

export function compileRoutes(endpoints: Endpoint[]) {
  const byPath = new Map<string, Pattern>();
  for (const e of endpoints) {
    const pattern = byPath.get(e.path) ?? { segments: parse(e.path), methods: new Set<Method>() };
    pattern.methods.add(e.method);
    byPath.set(e.path, pattern);
  }
  const patterns = [...byPath.values()];

  function matches(pattern: Pattern, parts: string[]): boolean {
    const { segments } = pattern;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      if (segment.kind === 'rest') return parts.length > i;
      if (i >= parts.length) return false;
      if (segment.kind === 'static' && segment.value !== parts[i]) return false;
    }
    return parts.length === segments.length;
  }

  function moreSpecific(a: Pattern, b: Pattern): boolean {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const diff = RANK[a.segments[i].kind] - RANK[b.segments[i].kind];
      if (diff !== 0) return diff < 0;
    }
    return a.segments.length > b.segments.length;
  }

  /** The methods allowed on `path`, or null when no route has that path. */
  return function allowedMethods(path: string): Set<Method> | null {
    const parts = path.split('/').filter(Boolean);
    let best: Pattern | null = null;
    for (const pattern of patterns) {
      if (matches(pattern, parts) && (!best || moreSpecific(pattern, best))) best = pattern;
    }
    return best ? best.methods : null;
  };
}
