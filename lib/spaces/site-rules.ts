// A site's own rules, kept at the root of a version as on Netlify and
// Cloudflare Pages: `_redirects` (redirects, rewrites, custom 404s) and
// `_headers` (response headers per path). They are parsed when the version is
// committed; a line that cannot be used is left out and reported, never fatal.
//
// _redirects: `<from> <to> [status][!]` per line, `#` comments. Status 301 by
// default; 200 rewrites (serves <to>'s file at <from>), 404 serves <to> with
// status 404, `!` forces the rule even where a file exists. <from> may end in
// `*` (the rest of the path, `:splat` in <to>) and hold `:name` placeholders
// (one segment each). Matching ignores the query string and a trailing slash;
// the first rule that matches wins, and unless forced it yields to a file
// that answers the path.
//
// _headers: a path pattern on its own line, then indented `Name: value`
// lines. Every rule whose pattern matches the asked path adds its headers;
// a header named twice is joined with ", ".
export type RedirectStatus = 200 | 301 | 302 | 303 | 307 | 308 | 404;
export type RedirectRule = { from: string; to: string; status: RedirectStatus; force: boolean };
export type HeaderRule = { path: string; headers: [string, string][] };
export type SiteRules = { redirects: RedirectRule[]; headers: HeaderRule[] };
export type IgnoredLine = { file: '_redirects' | '_headers'; line: number; reason: string };

/** How much a site's rules may hold (docs/decisions.md, "Rules kept in the site"). */
export const RULE_LIMITS = { redirects: 2000, headerRules: 200, headersPerRule: 50, lineLength: 2000, fileBytes: 256 * 1024 } as const;

const STATUSES = new Set([200, 301, 302, 303, 307, 308, 404]);
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

function validPattern(pattern: string): string | null {
  if (!pattern.startsWith('/')) return 'a path pattern starts with "/" (whole addresses and hosts are not matched)';
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1) return 'a "*" may only end the pattern';
  return null;
}

export function parseRedirects(text: string): { rules: RedirectRule[]; ignored: IgnoredLine[] } {
  const rules: RedirectRule[] = [];
  const ignored: IgnoredLine[] = [];
  const skip = (line: number, reason: string) => ignored.push({ file: '_redirects', line, reason });
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
    const [from, to, statusField, ...rest] = fields;
    if (rest.length || (statusField && statusField.includes('='))) return skip(line, 'query-string, country and language conditions are not supported');
    const problem = validPattern(from);
    if (problem) return skip(line, problem);
    const match = /^(\d{3})(!?)$/.exec(statusField ?? '301');
    if (!match || !STATUSES.has(Number(match[1]))) return skip(line, `status "${statusField}" is not one of 200, 301, 302, 303, 307, 308, 404 (with an optional "!")`);
    const status = Number(match[1]) as RedirectStatus;
    const external = /^https?:\/\//i.test(to);
    if (!external && !to.startsWith('/')) return skip(line, 'the target is a path starting with "/" or an http(s) address');
    if (external && (status === 200 || status === 404)) return skip(line, `status ${status} serves a file of this site; another site's address cannot be (proxying is not supported)`);
    rules.push({ from, to, status, force: match[2] === '!' });
  });
  return { rules, ignored };
}

/** With `onAppOrigin` (sites served on the app's origin), headers that are not sent there are reported too. */
export function parseHeaders(text: string, { onAppOrigin = false } = {}): { rules: HeaderRule[]; ignored: IgnoredLine[] } {
  const rules: HeaderRule[] = [];
  const ignored: IgnoredLine[] = [];
  const skip = (line: number, reason: string) => ignored.push({ file: '_headers', line, reason });
  let current: HeaderRule | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || raw.trim().startsWith('#')) return;
    if (raw.length > RULE_LIMITS.lineLength) return skip(line, `longer than ${RULE_LIMITS.lineLength} characters`);
    if (!/^\s/.test(raw)) {
      const path = raw.trim();
      current = null;
      const problem = validPattern(path);
      if (problem) return skip(line, problem);
      if (rules.length >= RULE_LIMITS.headerRules) return skip(line, `more than ${RULE_LIMITS.headerRules} path rules`);
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

const compiled = new Map<string, { regex: RegExp; names: string[] }>();

/** A pattern as a regular expression: `:name` is one segment, a final `*` the rest (`splat`). */
function compile(pattern: string) {
  let found = compiled.get(pattern);
  if (found) return found;
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
  found = { regex: new RegExp(`^${body}${splat ? '(.*)' : '/?'}$`), names };
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(pattern, found);
  return found;
}

/** The placeholders a pattern binds for `path` (`splat` for the star), or null when it does not match. */
function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const { regex, names } = compile(pattern);
  // "/blog/*" also matches "/blog" itself, as "/about" matches "/about/".
  const match = regex.exec(path) ?? (pattern.endsWith('/*') && !path.endsWith('/') ? regex.exec(`${path}/`) : null);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
}

/**
 * The first redirect rule matching `path` (the asked path, decoded, with its
 * leading slash), with its target filled in. Unless forced, it applies only
 * where no file answers the path (shadowing): the caller decides that.
 */
export function matchRedirect(rules: RedirectRule[], path: string): { rule: RedirectRule; target: string } | null {
  for (const rule of rules) {
    const bound = matchPattern(rule.from, path);
    if (!bound) continue;
    const target = rule.to.replace(/:([A-Za-z_]\w*)/g, (whole, name: string) => (name in bound ? bound[name] : whole));
    return { rule, target };
  }
  return null;
}

/** The headers the site's rules give `path`; a header named by several rules is joined with ", ". */
export function headersFor(rules: HeaderRule[], path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of rules) {
    if (!matchPattern(rule.path, path)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      out.set(key, out.has(key) ? `${out.get(key)}, ${value}` : value);
    }
  }
  return out;
}
