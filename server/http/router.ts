// Matches a /v1 path against the route table as Next's file router does
// (static segments before [param] before [...rest]). The front server uses it
// to find the route module of a request, its parameters and the methods the
// path allows.
import type { Endpoint, Method } from '../../lib/schemas/endpoint.ts';

type Segment = { kind: 'static'; value: string } | { kind: 'param'; name: string } | { kind: 'rest'; name: string };
type Pattern = { path: string; segments: Segment[]; endpoints: Map<Method, Endpoint> };

export type RouteMatch = {
  /** The spec's path of the matched route, e.g. `/v1/spaces/{id}/files/{path...}`. */
  path: string;
  params: Record<string, string | string[]>;
  endpoints: Map<Method, Endpoint>;
};

function parse(path: string): Segment[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((part): Segment => {
      const rest = /^\{(\w+)\.\.\.\}$/.exec(part);
      if (rest) return { kind: 'rest', name: rest[1] };
      const param = /^\{(\w+)\}$/.exec(part);
      if (param) return { kind: 'param', name: param[1] };
      return { kind: 'static', value: part };
    });
}

const RANK = { static: 0, param: 1, rest: 2 } as const;

function moreSpecific(a: Pattern, b: Pattern): boolean {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const diff = RANK[a.segments[i].kind] - RANK[b.segments[i].kind];
    if (diff !== 0) return diff < 0;
  }
  return a.segments.length > b.segments.length;
}

function bind(pattern: Pattern, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  const { segments } = pattern;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.kind === 'rest') {
      if (parts.length <= i) return null;
      params[segment.name] = parts.slice(i);
      return params;
    }
    if (i >= parts.length) return null;
    if (segment.kind === 'static' && segment.value !== parts[i]) return null;
    if (segment.kind === 'param') params[segment.name] = parts[i];
  }
  return parts.length === segments.length ? params : null;
}

export function compileRoutes(endpoints: Endpoint[]) {
  const byPath = new Map<string, Pattern>();
  for (const e of endpoints) {
    const pattern = byPath.get(e.path) ?? { path: e.path, segments: parse(e.path), endpoints: new Map() };
    pattern.endpoints.set(e.method, e);
    byPath.set(e.path, pattern);
  }
  // Most specific first, so the first pattern that binds is the one Next's router would pick.
  const patterns = [...byPath.values()].sort((a, b) => (moreSpecific(a, b) ? -1 : moreSpecific(b, a) ? 1 : 0));

  /** The route for these decoded path segments, or null when no route has that path. */
  return function match(parts: string[]): RouteMatch | null {
    for (const pattern of patterns) {
      const params = bind(pattern, parts);
      if (params) return { path: pattern.path, params, endpoints: pattern.endpoints };
    }
    return null;
  };
}
