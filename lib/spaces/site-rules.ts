// A site's own rules, kept at the root of a version as on Netlify and
// Cloudflare Pages: `_redirects` (redirects, rewrites, custom 404s) and
// `_headers` (response headers per path). They are parsed when the version is
// committed; a line that cannot be used is left out and reported, never fatal.
//
// _redirects: `<from> [name=value…] <to> [status][!]` per line, `#` comments.
// Status 301 by default; 301, 302, 303, 307 and 308 redirect, 200 rewrites
// (serves <to>'s file at <from>), a 4xx or 5xx serves <to> with that status
// (404 for a custom not-found page, 410 for gone), `!` forces the rule even
// where a file exists. <from> may end in `*` (the rest of the path, `:splat`
// in <to>) and hold `:name` placeholders (one segment each). `name=value`
// conditions ask for a query parameter: `id=:id` binds its value, `id=5`
// wants that value; `Country=us,ca` and `Language=en,fr` after the status ask
// for the visitor's country (from the trusted proxy) or preferred language.
// Matching ignores a trailing slash; the first rule that matches wins, and
// unless forced it yields to a file that answers the path.
//
// _headers: a path pattern on its own line, then indented `Name: value`
// lines. Every rule whose pattern matches the asked path, whatever its case
// (as Netlify's parser matches), adds its headers; a header named twice is
// joined with ", ".
/** 301, 302, 303, 307 or 308 (a redirect), 200 (a rewrite), or 400 to 599 (the target's file with that status). */
export type RedirectStatus = number;
/**
 * `query`: the query parameters the rule asks for, by name: a value, or a `:placeholder` that binds it.
 * `country`, `language`: the visitor's country (ISO codes) or preferred language (tags) it asks for, in lower case.
 */
export type RedirectRule = { from: string; to: string; status: RedirectStatus; force: boolean; query?: [string, string][]; country?: string[]; language?: string[] };
/** What a rule may ask of the visitor besides the path: the query, the country (null unknown), the preferred language (null none). */
export type Visitor = { query: URLSearchParams; country: string | null; language: string | null };
export type HeaderRule = { path: string; headers: [string, string][] };
export type SiteRules = { redirects: RedirectRule[]; headers: HeaderRule[] };
export type IgnoredLine = { file: '_redirects' | '_headers'; line: number; reason: string };

/** How much a site's rules may hold (docs/decisions.md, "Rules kept in the site"). */
export const RULE_LIMITS = {
  redirects: 2000,
  headerRules: 200,
  headersPerRule: 50,
  lineLength: 2000,
  fileBytes: 256 * 1024,
  placeholdersPerRule: 16,
  placeholdersPerFile: 1000,
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Whether a rule's status redirects; any other serves a file of the site. */
export const isRedirect = (status: RedirectStatus) => REDIRECTS.has(status);
const validStatus = (status: number) => isRedirect(status) || status === 200 || (status >= 400 && status <= 599);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers that are Atrium's to send: framing of the body, cookies (the site's access cookie among them), sniffing. */
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'content-encoding', 'etag', 'last-modified', 'location', 'set-cookie', 'x-content-type-options', 'keep-alive', 'upgrade', 'trailer', 'date', 'vary', 'accept-ranges', 'content-range']);

/**
 * The headers a site may send when it is served on the app's own origin (no
 * content domain): those that describe the file, narrow what the page may do
 * (a second Content-Security-Policy), or open the site's own files to other
 * origins without credentials. Anything else would act on the app's origin
 * itself: Clear-Site-Data wipes its session and storage, NEL, Report-To and
 * Reporting-Endpoints send its visitors' reports elsewhere,
 * Service-Worker-Allowed, Access-Control-Allow-Credentials, Strict-Transport-Security…
 */
const APP_ORIGIN_HEADERS = new Set([
  'cache-control',
  'expires',
  'content-type',
  'content-language',
  'content-disposition',
  'content-security-policy',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'cross-origin-resource-policy',
  'x-frame-options',
  'x-robots-tag',
  'link',
]);

/** Whether a site's header is sent when the site is served on the app's origin. */
export function sentOnAppOrigin(name: string): boolean {
  return APP_ORIGIN_HEADERS.has(name.toLowerCase());
}

/**
 * Whether a site's header tells caches how to keep the file (Cache-Control,
 * a CDN's own variant, Surrogate-Control, Expires): not taken for content
 * behind a cookie, which a shared cache must never keep for others.
 */
export function setsCaching(name: string): boolean {
  return /(^|-)cache-control$|^surrogate-control$|^expires$/i.test(name);
}

/** Why a path pattern cannot be used, or null. A `_headers` path may hold its one `*` anywhere (`/*.css`); a redirect's only ends it. */
function validPattern(pattern: string, { starInside = false } = {}): string | null {
  if (!pattern.startsWith('/')) return 'a path pattern starts with "/" (whole addresses and hosts are not matched)';
  const star = pattern.indexOf('*');
  if (star === -1 || star === pattern.length - 1) return null;
  if (!starInside) return 'a "*" may only end the pattern';
  if (pattern.includes('*', star + 1)) return 'one "*" per path';
  return pattern.includes('/:', star) ? 'a ":placeholder" after the "*"' : null;
}

/** Why an address elsewhere cannot be a target, or null. A visitor's path may fill its path and query, never choose its host. */
function addressProblem(to: string): string | null {
  if (/^https?:\/\/[^/?#]*:[A-Za-z_]/i.test(to)) return "a placeholder in the target's host would let visitors choose where they are sent";
  return URL.canParse(to) ? null : 'the target is not a valid http(s) address';
}

export function parseRedirects(text: string): { rules: RedirectRule[]; ignored: IgnoredLine[] } {
  const rules: RedirectRule[] = [];
  const ignored: IgnoredLine[] = [];
  const skip = (line: number, reason: string) => ignored.push({ file: '_redirects', line, reason });
  const placeholders = placeholderBudget();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    // A comment starts the line or follows whitespace. (Found by search, not by a pattern running to the end of
    // the line, which backtracks from every "#" on a long line.)
    const comment = raw.search(/(^|\s)#/);
    const content = (comment === -1 ? raw : raw.slice(0, comment)).trim();
    if (!content) return;
    if (raw.length > RULE_LIMITS.lineLength) return skip(line, `longer than ${RULE_LIMITS.lineLength} characters`);
    if (rules.length >= RULE_LIMITS.redirects) return skip(line, `more than ${RULE_LIMITS.redirects} rules`);
    const fields = content.split(/\s+/);
    if (fields.length < 2) return skip(line, 'a rule needs a path and a target');
    // As Netlify reads a line: the target is the first field after the path that is a path or an address.
    const [from, ...parts] = fields;
    const at = parts.findIndex((part) => part.startsWith('/') || /^https?:\/\//i.test(part));
    if (at === -1) return skip(line, 'the target is a path starting with "/" or an http(s) address');
    const query = parts.slice(0, at).map((part) => part.split('='));
    if (query.some((pair) => pair.length !== 2 || !pair[0])) return skip(line, 'a query condition between the path and the target is "name=value" or "name=:placeholder"');
    const [to, statusField, ...conditions] = parts.slice(at);
    if (statusField?.includes('=')) return skip(line, 'a status comes before the conditions (Country=, Language=)');
    const asks: { country?: string[]; language?: string[] } = {};
    for (const condition of conditions) {
      const [key, values, ...more] = condition.split('=');
      const kind = key.toLowerCase();
      if ((kind !== 'country' && kind !== 'language') || more.length || !values) return skip(line, `only Country= and Language= conditions are supported, not "${condition}"`);
      asks[kind] = values.toLowerCase().split(',').filter(Boolean);
    }
    const problem = validPattern(from);
    if (problem) return skip(line, problem);
    const match = /^(\d{3})(!?)$/.exec(statusField ?? '301');
    if (!match || !validStatus(Number(match[1]))) return skip(line, `status "${statusField}" is not 200, a redirect (301, 302, 303, 307, 308) or an error from 400 to 599 (with an optional "!")`);
    const status = Number(match[1]);
    const external = /^https?:\/\//i.test(to);
    const elsewhere = external ? addressProblem(to) : null;
    if (elsewhere) return skip(line, elsewhere);
    if (external && !isRedirect(status)) return skip(line, `status ${status} serves a file of this site; another site's address cannot be (proxying is not supported)`);
    const tooMany = placeholders(from);
    if (tooMany) return skip(line, tooMany);
    rules.push({ from, to, status, force: match[2] === '!', ...(query.length ? { query: query as [string, string][] } : {}), ...asks });
  });
  return { rules, ignored };
}

/** With `onAppOrigin` (sites served on the app's origin), headers that are not sent there are reported too. */
export function parseHeaders(text: string, { onAppOrigin = false } = {}): { rules: HeaderRule[]; ignored: IgnoredLine[] } {
  const rules: HeaderRule[] = [];
  const ignored: IgnoredLine[] = [];
  const skip = (line: number, reason: string) => ignored.push({ file: '_headers', line, reason });
  let current: HeaderRule | null = null;
  const placeholders = placeholderBudget();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || raw.trim().startsWith('#')) return;
    if (raw.length > RULE_LIMITS.lineLength) return skip(line, `longer than ${RULE_LIMITS.lineLength} characters`);
    if (!/^\s/.test(raw)) {
      const path = raw.trim();
      current = null;
      const problem = validPattern(path, { starInside: true });
      if (problem) return skip(line, problem);
      if (rules.length >= RULE_LIMITS.headerRules) return skip(line, `more than ${RULE_LIMITS.headerRules} path rules`);
      const tooMany = placeholders(path);
      if (tooMany) return skip(line, tooMany);
      current = { path, headers: [] };
      rules.push(current);
      return;
    }
    if (raw.trim().startsWith('!')) return skip(line, 'removing headers ("! Name") is not supported');
    if (!current) return skip(line, 'a header line comes after a path line');
    const colon = raw.indexOf(':');
    const name = colon === -1 ? '' : raw.slice(0, colon).trim();
    const value = colon === -1 ? '' : raw.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) return skip(line, 'a header line is "Name: value"');
    // eslint-disable-next-line no-control-regex
    if (!value || /[\u0000-\u001f\u007f]/.test(value)) return skip(line, `the value of ${name} is empty or holds control characters`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) return skip(line, `${name} is set by Atrium and cannot be changed`);
    if (current.headers.length >= RULE_LIMITS.headersPerRule) return skip(line, `more than ${RULE_LIMITS.headersPerRule} headers for one path`);
    current.headers.push([name, value]);
    // Kept for a custom domain, where the site has an origin of its own.
    if (onAppOrigin && !sentOnAppOrigin(name)) skip(line, `${name} is not sent on the app's origin (no content domain is set), only on a custom domain`);
  });
  return { rules: rules.filter((r) => r.headers.length), ignored };
}

// Matching. A version's patterns are split into path segments once, on first
// use (lib/spaces/publishing.ts keeps them with the version), and each file's
// go into one trie over segments: a request walks its path's segments through
// it instead of trying the rules one by one, and no regular expression is
// built from a site's file. A placeholder is the only way for a path to follow
// two branches, and chains of literal segments are one edge compared as one
// string, so the nodes a request visits are bounded by the number of rules and
// placeholders (RULE_LIMITS), whatever the path.

/**
 * A pattern's whole segments; with a `*`, the star's segment (a literal it
 * starts with, or a placeholder) then the rest of the path, which must end
 * with `suffix` (what follows the star: "" but in `_headers`, `.css` in `/*.css`).
 */
type Pattern = { segments: string[]; star: string | null; suffix: string };
/** A `:name` segment matches any one non-empty segment; ":" alone is a literal. */
const isPlaceholder = (segment: string) => segment.length > 1 && segment[0] === ':';
type Node = {
  /** Literal edges by their first segment; an edge is a chain of segments ("a/b/c"), compared at once. */
  literals: Map<string, Edge>;
  placeholder: Node | null;
  /** Patterns without a star that end here. */
  ends: number[];
  /** Patterns whose star's segment comes next: its literal start, or null for a placeholder, and what the path ends with. */
  stars: { index: number; prefix: string | null; suffix: string }[];
};
/** `run` is the segments joined with "/", set once the trie is built. */
type Edge = { segments: string[]; run: string; to: Node };
/** A version's rules ready to match (compileRules): each file's patterns in one trie; `bytes` estimates the memory they hold. */
export type CompiledRules = { redirects: RedirectRule[]; headers: HeaderRule[]; redirectTrie: Node; headerTrie: Node; bytes: number; conditional: boolean };

function parsePattern(pattern: string): Pattern {
  const star = pattern.indexOf('*');
  if (star !== -1) {
    const segments = pattern.slice(0, star).split('/');
    return { segments: segments.slice(0, -1), star: segments.at(-1)!, suffix: pattern.slice(star + 1) };
  }
  // "/about/" is "/about": a trailing slash is allowed on the path instead.
  let end = pattern.length;
  while (pattern.length > 1 && end > 0 && pattern[end - 1] === '/') end--;
  return { segments: pattern.slice(0, end).split('/'), star: null, suffix: '' };
}

/** Spends a file's placeholders rule by rule: why a pattern is left out, or null. */
function placeholderBudget() {
  let spent = 0;
  return (pattern: string): string | null => {
    // A placeholder is a segment of two characters or more after a "/", the first ":" (counted without splitting).
    const body = pattern.replace('*', '');
    let count = 0;
    for (let at = body.indexOf('/:'); at !== -1; at = body.indexOf('/:', at + 1)) if (at + 2 < body.length && body[at + 2] !== '/') count++;
    if (count > RULE_LIMITS.placeholdersPerRule) return `more than ${RULE_LIMITS.placeholdersPerRule} placeholders in one rule`;
    if (spent + count > RULE_LIMITS.placeholdersPerFile) return `more than ${RULE_LIMITS.placeholdersPerFile} placeholders in the file`;
    spent += count;
    return null;
  };
}

const newNode = (): Node => ({ literals: new Map(), placeholder: null, ends: [], stars: [] });

/** The trie of a file's patterns: runs of literal segments share an edge until they differ, where it splits. */
function buildTrie(patterns: string[]): Node {
  const root = newNode();
  patterns.forEach((pattern, index) => {
    const { segments, star, suffix } = parsePattern(pattern);
    let node = root;
    let i = 0;
    while (i < segments.length) {
      if (isPlaceholder(segments[i])) {
        node = node.placeholder ??= newNode();
        i++;
        continue;
      }
      const edge = node.literals.get(segments[i]);
      if (!edge) {
        let end = i;
        while (end < segments.length && !isPlaceholder(segments[end])) end++;
        const to = newNode();
        node.literals.set(segments[i], { segments: segments.slice(i, end), run: '', to });
        node = to;
        i = end;
        continue;
      }
      // An edge holds literals only, so a placeholder never equals one of its segments.
      let same = 1;
      while (same < edge.segments.length && i + same < segments.length && segments[i + same] === edge.segments[same]) same++;
      if (same < edge.segments.length) {
        const middle = newNode();
        middle.literals.set(edge.segments[same], { segments: edge.segments.slice(same), run: '', to: edge.to });
        edge.segments = edge.segments.slice(0, same);
        edge.to = middle;
      }
      node = edge.to;
      i += same;
    }
    if (star !== null) node.stars.push({ index, prefix: isPlaceholder(star) ? null : star, suffix });
    else node.ends.push(index);
  });
  // Each edge is compared against the path as one string.
  const pending = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (const edge of node.literals.values()) {
      edge.run = edge.segments.join('/');
      pending.push(edge.to);
    }
    if (node.placeholder) pending.push(node.placeholder);
  }
  return root;
}

/**
 * A version's rules, compiled for matching. Versions committed before the
 * placeholder caps and the checks of addresses elsewhere may hold rules they
 * refuse: they apply here too.
 */
export function compileRules(rules: SiteRules): CompiledRules {
  const redirectsWithin = placeholderBudget();
  const headersWithin = placeholderBudget();
  const redirects = rules.redirects.filter((rule) => redirectsWithin(rule.from) === null && !(/^https?:\/\//i.test(rule.to) && addressProblem(rule.to)));
  const headers = rules.headers.filter((rule) => headersWithin(rule.path) === null);
  // Measured on files of 2,000 rules: about 700 bytes per rule and 4 per character of its text, trie included.
  const characters = [...redirects.map((r) => r.from + r.to), ...headers.flatMap((r) => [r.path, ...r.headers.flat()])].reduce((sum, text) => sum + text.length, 0);
  const bytes = 700 * (redirects.length + headers.length) + 4 * characters;
  const conditional = redirects.some((rule) => rule.country || rule.language);
  return { redirects, headers, redirectTrie: buildTrie(redirects.map((r) => r.from)), headerTrie: buildTrie(headers.map((r) => r.path.toLowerCase())), bytes, conditional };
}

/** Calls `found` with the index of every pattern that matches `path`, in no particular order. */
function eachMatch(root: Node, path: string, found: (index: number) => void): void {
  const segments = path.split('/');
  const starts = [0];
  for (const segment of segments) starts.push(starts.at(-1)! + segment.length + 1);
  const pending: [Node, number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, i] = next;
    const left = segments.length - i;
    // Without a star, a pattern matches the whole path, or all of it but a trailing slash.
    if (left === 0 || (left === 1 && segments[i] === '')) node.ends.forEach((index) => found(index));
    for (const { index, prefix, suffix } of node.stars) {
      // "/blog/*" also matches "/blog" itself.
      if (left === 0) {
        if (prefix === '' && suffix === '' && !path.endsWith('/')) found(index);
        continue;
      }
      const begins = prefix === null ? segments[i] !== '' : path.startsWith(prefix, starts[i]);
      // The star takes what lies between its start and the suffix (a trailing slash allowed after it); a
      // star alone in its segment may take nothing, its slash included ("/blog/*/comments" takes "/blog/comments").
      const from = starts[i] + (prefix ?? segments[i]).length - (prefix === '' && suffix.startsWith('/') ? 1 : 0);
      const endsAt = (end: number) => end - suffix.length >= from && path.startsWith(suffix, end - suffix.length);
      if (begins && (suffix === '' || endsAt(path.length) || (path.endsWith('/') && endsAt(path.length - 1)))) found(index);
    }
    if (left === 0) continue;
    const edge = node.literals.get(segments[i]);
    if (edge && path.startsWith(edge.run, starts[i])) {
      const end = starts[i] + edge.run.length;
      if (end === path.length || path[end] === '/') pending.push([edge.to, i + edge.segments.length]);
    }
    if (node.placeholder && segments[i] !== '') pending.push([node.placeholder, i + 1]);
  }
}

/** What a pattern that matches `path` binds: each `:name` (the first of a name, as Netlify binds), and `splat` for the star. */
function bindings({ segments, star }: Pattern, path: string): Map<string, string> {
  const asked = path.split('/');
  const bound = new Map<string, string>();
  const bind = (name: string, value: string) => bound.has(name) || bound.set(name, value);
  segments.forEach((segment, i) => {
    if (isPlaceholder(segment)) bind(segment.slice(1), asked[i]);
  });
  if (star === null) return bound;
  const rest = asked.slice(segments.length).join('/');
  const head = isPlaceholder(star) ? asked[segments.length] : star;
  if (isPlaceholder(star)) bind(star.slice(1), head);
  bound.set('splat', rest.slice(head.length));
  return bound;
}

// A target is sent as a URL, whatever the site's file holds: a Location
// header carries bytes, not text (a character past U+00FF cannot be sent at
// all). The rule's own text keeps its escapes and the characters a URL holds;
// a placeholder's value is the decoded path (well-formed, or it would not
// have decoded), so its "%", "?" and "#" are escaped too: /blog/%2541 goes
// to /news/%2541, as on Netlify.

/** What a URL holds as it is (RFC 3986's unreserved and reserved characters, and valid escapes); anything else becomes UTF-8 escapes. */
const OUTSIDE_URL = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;
/** What a placeholder's value holds as it is: not "&", "=" or "+", which would add or change a query parameter of the target. */
const OUTSIDE_VALUE = /[^A-Za-z0-9\-._~:/@!$'()*,;]/gu;
const escaped = (text: string, outside: RegExp) => text.replace(outside, (c) => encodeURIComponent(c));

/** A filled-in target as a URL; an address elsewhere keeps its scheme, and its host is sent in punycode. */
function asUrl(target: string): string {
  const absolute = /^(https?:\/\/[^/?#]*)(.*)$/is.exec(target);
  if (!absolute) return escaped(target, OUTSIDE_URL);
  // The rule's own text up to the path: an address it was checked to be (addressProblem).
  const [, origin, rest] = absolute;
  return new URL(origin).href.slice(0, -1) + escaped(rest, OUTSIDE_URL);
}

/**
 * The language a visitor prefers (Accept-Language's first tag of the highest
 * weight, "*" and weight 0 aside), in lower case; null when none.
 */
export function preferredLanguage(header: string | null): string | null {
  let best: { tag: string; weight: number } | null = null;
  for (const entry of (header ?? '').split(',').slice(0, 50)) {
    const [tag, ...parameters] = entry.trim().split(';');
    const q = parameters.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    if (/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) && weight > 0 && (!best || weight > best.weight)) best = { tag: tag.toLowerCase(), weight };
  }
  return best?.tag ?? null;
}

/** Whether a `Language=` value takes the visitor's language: itself, or a region of it (`en` takes `en-gb`, `en-gb` only itself), as Netlify matches. */
const speaks = (language: string | null, wanted: string) => language !== null && (language === wanted || language.startsWith(`${wanted}-`));

/** What a rule's conditions bind from the asked query parameters (each name's last value, as Netlify's engine takes it), or null when one is not met. */
function conditionsMet(rule: RedirectRule, visitor: Visitor, asked: () => Map<string, string>): Map<string, string> | null {
  if (rule.country && !(visitor.country && rule.country.includes(visitor.country.toLowerCase()))) return null;
  if (rule.language && !rule.language.some((wanted) => speaks(visitor.language, wanted))) return null;
  const bound = new Map<string, string>();
  for (const [name, wanted] of rule.query ?? []) {
    const value = asked().get(name);
    if (value === undefined) return null;
    if (isPlaceholder(wanted)) bound.set(wanted.slice(1), value);
    else if (value !== wanted) return null;
  }
  return bound;
}

/**
 * The first redirect rule matching `path` (the asked path, decoded, with its
 * leading slash) and whose conditions the visitor meets, with its target
 * filled in as a URL (percent-encoded). Unless forced, it applies only where
 * no file answers the path (shadowing): the caller decides that.
 */
export function matchRedirect(rules: CompiledRules, path: string, visitor: Visitor = { query: new URLSearchParams(), country: null, language: null }): { rule: RedirectRule; target: string } | null {
  const matching: number[] = [];
  eachMatch(rules.redirectTrie, path, (index) => matching.push(index));
  // Read once, when a rule asks: URLSearchParams.get scans every parameter, for every rule.
  let parameters: Map<string, string> | null = null;
  const asked = () => (parameters ??= new Map(visitor.query)); // a name given twice keeps its last value
  let rule: RedirectRule | undefined;
  let fromQuery: Map<string, string> | null = null;
  for (const index of matching.sort((a, b) => a - b)) {
    fromQuery = conditionsMet(rules.redirects[index], visitor, asked);
    if (fromQuery) {
      rule = rules.redirects[index];
      break;
    }
  }
  if (!rule || !fromQuery) return null;
  const bound = new Map([...bindings(parsePattern(rule.from), path), ...fromQuery]);
  // Split around placeholders: even pieces are the rule's text, odd ones names.
  const filled = rule.to.split(/:([A-Za-z_]\w*)/).map((piece, i) => {
    if (i % 2 === 0) return piece;
    const value = bound.get(piece);
    return value === undefined ? `:${piece}` : escaped(value, OUTSIDE_VALUE);
  });
  return { rule, target: asUrl(filled.join('')) };
}

/**
 * Whether the answer for `path` depends on the visitor's country or language:
 * a rule for the path asks for one, met or not (a cache must keep the answers
 * apart, Vary). Only walked for a version with such rules.
 */
export function dependsOn(rules: CompiledRules, path: string): { country: boolean; language: boolean } {
  const depends = { country: false, language: false };
  if (!rules.conditional) return depends;
  eachMatch(rules.redirectTrie, path, (index) => {
    depends.country ||= Boolean(rules.redirects[index].country);
    depends.language ||= Boolean(rules.redirects[index].language);
  });
  return depends;
}

/** The headers the site's rules give `path` (case ignored); a header named by several rules is joined with ", ", in the file's order. */
export function headersFor(rules: CompiledRules, path: string): Map<string, string> {
  const matching: number[] = [];
  eachMatch(rules.headerTrie, path.toLowerCase(), (index) => matching.push(index));
  const out = new Map<string, string>();
  for (const index of matching.sort((a, b) => a - b)) {
    for (const [name, value] of rules.headers[index].headers) {
      const key = name.toLowerCase();
      out.set(key, out.has(key) ? `${out.get(key)}, ${value}` : value);
    }
  }
  return out;
}
