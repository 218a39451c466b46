// Visitor statistics. A view stores the page, version, referrer's host,
// country (from a trusted proxy's headers) and, for signed-in people, who.
// No IP address is stored: a visitor is the hash of address, user agent and
// space with a salt made fresh each day and deleted the next, so visitors can
// be counted within a day but never traced back or followed across days.
// Views older than 90 days are deleted when a new day's salt is made.
//
// The beacon (POST …/views) is anonymous, so what it may store is bounded:
// 60 beacons a minute per space and client address (then 429 with
// Retry-After), a page only when it is one of the version's pages (else the
// beacon is answered 204 and not counted), and of the referrer only the host
// of an http(s) URL. See docs/decisions.md ("Rate limits").
import { createHash, randomBytes } from 'node:crypto';
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { db, query } from '../db/client.ts';
import { addressKey } from '../core/client.ts';
import { log } from '../log.ts';
import { rateLimit } from '../core/rate-limit.ts';
import type { VisitorStats } from '../schemas/spaces.ts';
import { findEntry } from './manifest.ts';
import { normalizePath } from './paths.ts';
import { versionRefs } from './publishing.ts';
import { spaceWith } from './spaces.ts';

export const KEEP_DAYS = 90;
const DAY = 24 * 60 * 60 * 1000;
export const BEACONS_PER_MINUTE = 60;
// The longest host name DNS allows, with room for a port.
const MAX_REFERRER_HOST = 253 + 6;

const beacons = rateLimit({
  name: 'view-beacon',
  points: BEACONS_PER_MINUTE,
  duration: 60,
  message: `At most ${BEACONS_PER_MINUTE} views a minute are recorded per space from one address; wait a minute.`,
});

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

let currentSalt: { day: string; salt: string } | null = null;

async function saltOf(day: string): Promise<string> {
  if (currentSalt?.day === day) return currentSalt.salt;
  const created = await db.dailySalt.createMany({ data: [{ day, salt: randomBytes(32).toString('base64url') }], skipDuplicates: true });
  if (created.count === 1) {
    // The first view of a day prunes what is no longer kept.
    await db.$transaction([
      db.dailySalt.deleteMany({ where: { day: { lt: day } } }),
      db.spaceView.deleteMany({ where: { at: { lt: new Date(Date.now() - KEEP_DAYS * DAY) } } }),
    ]);
  }
  const { salt } = await db.dailySalt.findUniqueOrThrow({ where: { day } });
  currentSalt = { day, salt };
  return salt;
}

/** The host of an http(s) referrer; nothing of any other kind of text. */
function referrerHost(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.host && url.host.length <= MAX_REFERRER_HOST ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * The page a beacon names, as served views store it ("/", "/docs/",
 * "/about.html"), when the version has it; null otherwise. Takes what a
 * browser's location gives: percent-encoded, maybe with a query or fragment.
 */
async function pageOf(spaceId: string, version: number, raw: string): Promise<string | null> {
  const refs = await versionRefs(spaceId, version);
  if (!refs) return null;
  let inner: string;
  try {
    inner = decodeURIComponent(raw.replace(/[?#].*$/s, '')).replace(/^\/+/, '');
  } catch {
    return null;
  }
  const normal = (path: string) => {
    try {
      return normalizePath(path);
    } catch {
      return null;
    }
  };
  if (inner === '' || inner.endsWith('/')) {
    const folder = inner === '' ? '' : normal(inner.slice(0, -1));
    if (folder === null) return null;
    const prefix = folder === '' ? '' : `${folder}/`;
    return (await findEntry(refs, `${prefix}index.html`)) ? `/${prefix}` : null;
  }
  const path = normal(inner);
  if (path === null) return null;
  if (await findEntry(refs, path)) return `/${path}`;
  return (await findEntry(refs, `${path}/index.html`)) ? `/${path}/` : null;
}

/**
 * Stores one view (callers decide whether it counts). Views are written in
 * batches: a page's answer does not wait for its row, and one statement
 * writes every view of the last second. A crash (kill -9, power) forgets at
 * most that second's views on this node; a drain writes them first
 * (flushViews), and a read of the statistics on this node writes them before
 * it reads.
 */
export async function storeView(
  { actor, client }: Caller,
  spaceId: string,
  view: { path: string; version: number | null; referrer: string | null; alias?: string | null },
): Promise<void> {
  const now = Date.now();
  const salt = await saltOf(utcDay(now));
  const visitor = createHash('sha256')
    .update(`${salt}\n${spaceId}\n${client.address ?? ''}\n${client.userAgent ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  pendingViews.push([
    spaceId,
    new Date(now).toISOString(),
    view.path.startsWith('/') ? view.path : `/${view.path}`,
    view.version,
    referrerHost(view.referrer),
    client.location?.country ?? null,
    visitor,
    actor?.user.id ?? null,
    view.alias ?? null,
  ]);
  if (pendingViews.length >= VIEW_BATCH) void flushViews();
  else flushTimer ??= setTimeout(() => void flushViews(), VIEW_FLUSH_MS).unref();
}

const VIEW_FLUSH_MS = 1000;
const VIEW_BATCH = 500;
type ViewRow = [string, string, string, number | null, string | null, string | null, string, string | null, string | null];
let pendingViews: ViewRow[] = [];
let flushTimer: NodeJS.Timeout | null = null;
let flushing: Promise<void> = Promise.resolve();

/** Writes the views not yet stored: one statement, in order after any write under way. */
export function flushViews(): Promise<void> {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  const batch = pendingViews;
  pendingViews = [];
  flushing = flushing.then(async () => {
    if (!batch.length) return;
    const columns = batch[0].map((_, i) => batch.map((row) => row[i]));
    try {
      await query(STORE_VIEWS, columns);
    } catch (error) {
      // A visitor count can spare a batch; the pages it counted were served.
      log.warn('views not stored', { views: batch.length, error: error instanceof Error ? error.message : String(error) });
    }
  });
  return flushing;
}

// One statement for a batch (a column per array), committed without waiting
// for a disk flush (synchronous_commit off for this statement only): a crash
// of PostgreSQL may forget the last fraction of a second of views, which a
// visitor count can spare. Views of a space deleted since are left out.
const STORE_VIEWS = `
  INSERT INTO "SpaceView" ("spaceId", "at", "path", "version", "referrer", "country", "visitor", "userId", "alias")
  SELECT v."spaceId", v."at", v."path", v."version", v."referrer", v."country", v."visitor", v."userId", v."alias"
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
      WITH ORDINALITY AS v ("spaceId", "at", "path", "version", "referrer", "country", "visitor", "userId", "alias", "n"),
    (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed
  WHERE EXISTS (SELECT 1 FROM "Space" s WHERE s."id" = v."spaceId")
  ORDER BY v."n"`;

/** The beacon: a view of a page the caller can see; people who can push are not counted. */
export async function recordView(
  caller: Caller,
  id: string,
  view: { path: string; version?: number | null; referrer?: string | null },
): Promise<void> {
  const { space, permissions } = await spaceWith(caller, id, 'view');
  if (permissions.push) return;
  await beacons.consume(`${space.id}:${addressKey(caller.client.address)}`);
  const version = view.version ?? null;
  if (version !== null && version > space.latestVersion) return;
  const path = await pageOf(space.id, version ?? space.latestVersion, view.path);
  if (path === null) return;
  await storeView(caller, space.id, { path, version, referrer: view.referrer ?? null });
}

const TOP = 20;
const RECENT = 50;

export async function visitorStats(caller: SignedInCaller, id: string, days: number): Promise<VisitorStats> {
  const { space } = await spaceWith(caller, id, 'push');
  // This node's views of the last second are counted too.
  await flushViews();
  const today = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
  const since = new Date(today - (days - 1) * DAY);
  const where = { spaceId: space.id, at: { gte: since } };
  const [daily, countries, referrers, pages, people, recent, aliases] = await Promise.all([
    db.$queryRaw<{ date: string; views: number; visitors: number }[]>`
      SELECT to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "date", count(*)::int AS "views", count(DISTINCT "visitor")::int AS "visitors"
      FROM "SpaceView" WHERE "spaceId" = ${space.id} AND "at" >= ${since} GROUP BY 1`,
    db.spaceView.groupBy({ by: ['country'], where, _count: { _all: true }, orderBy: { _count: { country: 'desc' } }, take: TOP }),
    db.spaceView.groupBy({ by: ['referrer'], where, _count: { _all: true }, orderBy: { _count: { referrer: 'desc' } }, take: TOP }),
    db.spaceView.groupBy({ by: ['path'], where, _count: { _all: true }, orderBy: { _count: { path: 'desc' } }, take: TOP }),
    db.spaceView.groupBy({ by: ['userId'], where: { ...where, userId: { not: null } }, _count: { _all: true }, _max: { at: true } }),
    db.spaceView.findMany({ where, orderBy: { at: 'desc' }, take: RECENT, select: { at: true, path: true, version: true, country: true, referrer: true, userId: true, alias: true } }),
    db.spaceView.groupBy({ by: ['alias'], where: { ...where, alias: { not: null } }, _count: { _all: true }, orderBy: { _count: { alias: 'desc' } }, take: TOP }),
  ]);
  const userIds = [...new Set([...people.map((p) => p.userId!), ...recent.flatMap((r) => (r.userId ? [r.userId] : []))])];
  const users = new Map((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, handle: true, name: true } })).map((u) => [u.id, u]));
  const byDate = new Map(daily.map((d) => [d.date, d]));
  const dailyFull = Array.from({ length: days }, (_, i) => {
    const date = utcDay(since.getTime() + i * DAY);
    return { date, views: byDate.get(date)?.views ?? 0, visitors: byDate.get(date)?.visitors ?? 0 };
  });
  const label = <T>(rows: T[], key: keyof T, none: string) =>
    rows.map((r) => ({ label: ((r[key] as string | null) ?? none), views: (r as { _count: { _all: number } })._count._all }));
  return {
    days,
    views: dailyFull.reduce((sum, d) => sum + d.views, 0),
    visitors: dailyFull.reduce((sum, d) => sum + d.visitors, 0),
    signedIn: people.filter((p) => users.has(p.userId!)).length,
    daily: dailyFull,
    countries: label(countries, 'country', 'Unknown'),
    referrers: label(referrers, 'referrer', 'Direct'),
    pages: label(pages, 'path', ''),
    aliases: label(aliases, 'alias', ''),
    people: people
      .filter((p) => users.has(p.userId!))
      .map((p) => ({ user: users.get(p.userId!)!, views: p._count._all, lastSeenAt: p._max.at!.getTime() }))
      .sort((a, b) => b.views - a.views || b.lastSeenAt - a.lastSeenAt),
    recent: recent.map((r) => ({ at: r.at.getTime(), path: r.path, version: r.version, alias: r.alias, country: r.country, referrer: r.referrer, user: r.userId ? (users.get(r.userId) ?? null) : null })),
  };
}
