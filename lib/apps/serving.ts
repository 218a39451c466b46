// Live apps, served on their own host (app-<slug>.<content domain>,
// lib/spaces/hosts.ts) or, without a content domain, at /a/<slug>/… on the
// app's origin (server/apps.ts speaks HTTP; this module decides).
//
// - The live version's files; a folder serves its index.html.
// - Access: `public` lets anyone in; `code` shows a join-code form, and the
//   right code sets the app's cookie; `private` lets in people who can view
//   the app's room: on its own host the app's origin hands them over with a
//   one-minute single-use link; without a content domain their session
//   counts. A paused app shows a paused page to everyone.
// - The app's cookie is a signed value naming the app, its end user, whether
//   they are its administrator, and the app's access epoch: changing access
//   or renewing the join code bumps the epoch, so everyone passes again.
// - Owner links: a signed single-use link valid 10 minutes that opens the
//   live app as its administrator (who may add rows to every table).
// - `_api/session`, `_api/tables/<name>` (GET rows, POST a row): the data
//   API the app's script uses, behind the same access rules.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { roomAccess } from '../access/rooms.ts';
import type { Actor } from '../core/caller.ts';
import { recordAudit } from '../audit/log.ts';
import { serverSecret } from '../auth/server-secret.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { FileAnswer } from '../core/files.ts';
import { addressKey } from '../core/client.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { newId } from '../ids.ts';
import { contentTypeOf } from '../spaces/content.ts';
import { findEntry } from '../spaces/manifest.ts';
import { normalizePath } from '../spaces/paths.ts';
import { versionRefs } from '../spaces/publishing.ts';
import { liveAppUrl } from '../spaces/hosts.ts';
import { appWith } from './apps.ts';
import { addRow, countRows, listRows, MAX_ROWS_PER_TABLE, specOf } from './data.ts';

export const OWNER_LINK_SECONDS = 10 * 60;
const HANDOFF_SECONDS = 60;
export const APP_COOKIE_SECONDS = 12 * 60 * 60;
export const ENTRY_PARAM = 'atrium-entry';

/** The app's pages: our own script and styles, nothing from elsewhere. */
export function appCsp(): string {
  const frame = [...new Set(["'self'", new URL(config.publicUrl).origin])].join(' ');
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${frame}`;
}

// --- signed values ----------------------------------------------------------------

type CookieValue = { a: string; e: number; u: string | null; adm: boolean; x: number };
type EntryValue = { a: string; u: string; adm: boolean; x: number; j: string };

const sign = async (data: string) => createHmac('sha256', await serverSecret('app-access')).update(data).digest('base64url');

async function seal(value: object): Promise<string> {
  const data = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${data}.${await sign(data)}`;
}

async function unseal<T>(token: string | null): Promise<T | null> {
  if (!token || token.length > 2000) return null;
  const [data, mac] = token.split('.');
  if (!data || !mac) return null;
  const expected = Buffer.from(await sign(data));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

async function entryLink(appId: string, slug: string, userId: string, admin: boolean, seconds: number): Promise<{ url: string; expiresAt: number }> {
  const expiresAt = Date.now() + seconds * 1000;
  const token = await seal({ a: appId, u: userId, adm: admin, x: expiresAt, j: randomBytes(12).toString('base64url') } satisfies EntryValue);
  return { url: `${liveAppUrl(slug)}?${ENTRY_PARAM}=${token}`, expiresAt };
}

/** POST /v1/apps/{id}/owner-link: edit on the room, and a live app. */
export async function ownerLink({ actor }: SignedInCaller, id: string): Promise<{ url: string; expiresAt: number }> {
  const { row } = await appWith(actor.user.id, id, 'edit');
  if (row.liveVersion === null) throw new ApiError('conflict', 'This app is not live yet; an owner link opens the live app.');
  return entryLink(row.id, row.slug, actor.user.id, true, OWNER_LINK_SECONDS);
}

// --- visits ---------------------------------------------------------------------------

export type AppVisit = {
  url: URL;
  /** On the app's own host, or at /a/<slug>/ on the app's origin. */
  where: 'own-host' | 'app-origin';
  /** The path inside the app as asked (still percent-encoded), without its leading slash. */
  inner: string;
  method: string;
  sessionActor: Actor | null;
  cookie: string | null;
  client: Caller['client'];
  /** The join-code form's value, for a POST of the form. */
  code?: string | null;
  /** A JSON body, for a POST to `_api/tables/<name>`. */
  json?: unknown;
};

export type AppAnswer = { grant?: string } & (
  | { kind: 'file'; file: FileAnswer }
  | { kind: 'redirect'; location: string; status: 303 | 308 }
  | { kind: 'code'; status: 401 | 400 | 429; name: string; error: string | null; headers?: Record<string, string> }
  | { kind: 'paused'; name: string }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'not-found'; message: string; signInUrl: string | null }
);

const NOT_FOUND = 'There is no live app here, or you cannot open it.';
const notFound = (signInUrl: string | null = null): AppAnswer => ({ kind: 'not-found', message: NOT_FOUND, signInUrl });
const apiError = (status: number, code: string, message: string, headers?: Record<string, string>): AppAnswer => ({ kind: 'json', status, body: { error: { code, message } }, headers });

// Visitors' rows (form tables), shared by every node: per address, and per app
// for all visitors together, so that a flood fills nothing in minutes.
export const ROW_LIMITS = { perAddress: 20, perApp: 300, seconds: 60 } as const;
const rowsPerAddress = rateLimit({ name: 'app-rows-address', points: ROW_LIMITS.perAddress, duration: ROW_LIMITS.seconds, message: `Too many rows from your address: at most ${ROW_LIMITS.perAddress} a minute. Wait a moment.` });
const rowsPerApp = rateLimit({ name: 'app-rows-app', points: ROW_LIMITS.perApp, duration: ROW_LIMITS.seconds, message: 'This app is taking too many rows at the moment; try again in a minute.' });

const codeTries = rateLimit({ name: 'app-join-code', points: 10, duration: 10 * 60, message: 'Too many wrong codes from your address; wait a few minutes and try again.' });

type LiveApp = { id: string; slug: string; name: string; status: string; access: string; joinCode: string | null; accessEpoch: number; liveVersion: number | null; spaceId: string; roomId: string; room: { kind: 'room' | 'live' } };

async function recordEndUser(appId: string, userId: string | null, via: 'code' | 'sign-in' | 'owner-link'): Promise<string> {
  if (userId) {
    const row = await db.appEndUser.upsert({
      where: { appId_userId: { appId, userId } },
      create: { id: newId('appEndUser'), appId, userId, via },
      update: { lastSeenAt: new Date(), ...(via === 'owner-link' ? {} : { via }) },
      select: { id: true },
    });
    return row.id;
  }
  const row = await db.appEndUser.create({ data: { id: newId('appEndUser'), appId, userId: null, via }, select: { id: true } });
  return row.id;
}

async function grantFor(app: LiveApp, endUser: string | null, admin: boolean): Promise<string> {
  return seal({ a: app.id, e: app.accessEpoch, u: endUser, adm: admin, x: Date.now() + APP_COOKIE_SECONDS * 1000 } satisfies CookieValue);
}

async function roomAllows(app: LiveApp, userId: string, capability: 'view' | 'edit' = 'view'): Promise<boolean> {
  try {
    await roomAccess(userId, app.room.kind, app.roomId, capability);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/**
 * A cookie given for who someone is (an owner link's administrator, a private
 * app's signed-in visitor) lasts only while they may still edit (or view) the
 * app's room: leaving the room or the workspace ends it at the next request.
 */
async function cookieHolderMayStay(app: LiveApp, cookie: CookieValue): Promise<boolean> {
  if (!cookie.adm && app.access !== 'private') return true;
  const endUser = cookie.u ? await db.appEndUser.findUnique({ where: { id: cookie.u }, select: { userId: true } }) : null;
  return !!endUser?.userId && (await roomAllows(app, endUser.userId, cookie.adm ? 'edit' : 'view'));
}

function signInUrl(url: URL): string {
  return `${config.publicUrl}/signin?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`;
}

export async function serveApp(visit: AppVisit, slug: string): Promise<AppAnswer> {
  const { url } = visit;
  const app = (await db.app.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, status: true, access: true, joinCode: true, accessEpoch: true, liveVersion: true, spaceId: true, roomId: true, room: { select: { kind: true } } },
  })) as LiveApp | null;
  if (!app || app.liveVersion === null) return notFound();

  // With hosts of their own, the app's origin only hands signed-in people over.
  if (visit.where === 'app-origin' && config.contentDomain) {
    const actor = visit.sessionActor;
    if (!actor) return { kind: 'redirect', location: signInUrl(url), status: 303 };
    if (!(await roomAllows(app, actor.user.id))) return notFound();
    const { url: entry } = await entryLink(app.id, app.slug, actor.user.id, false, HANDOFF_SECONDS);
    return { kind: 'redirect', location: entry, status: 303 };
  }
  if (visit.where === 'app-origin' && url.pathname === `/a/${slug}`) return { kind: 'redirect', location: `${url.origin}/a/${slug}/${url.search}`, status: 308 };

  // An owner link or a hand-off: single use, then the cookie.
  const entryToken = url.searchParams.get(ENTRY_PARAM);
  if (entryToken) {
    const clean = new URL(url);
    clean.searchParams.delete(ENTRY_PARAM);
    const answer: AppAnswer = { kind: 'redirect', location: clean.toString(), status: 303 };
    const entry = await unseal<EntryValue>(entryToken);
    if (entry && entry.a === app.id && entry.x > Date.now()) {
      const used = await db.appLinkUse.createMany({ data: [{ jti: entry.j, expiresAt: new Date(entry.x) }], skipDuplicates: true });
      if (used.count === 1) answer.grant = await grantFor(app, await recordEndUser(app.id, entry.u, entry.adm ? 'owner-link' : 'sign-in'), entry.adm);
      if (Math.random() < 0.01) await db.appLinkUse.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    }
    return answer;
  }

  if (app.status === 'paused') return visit.inner.startsWith('_api/') ? apiError(503, 'unavailable', 'This app is paused.') : { kind: 'paused', name: app.name };

  const path = visit.inner;
  const isApi = path.startsWith('_api/');
  let cookie = await unseal<CookieValue>(visit.cookie);
  if (cookie && (cookie.a !== app.id || cookie.e !== app.accessEpoch || cookie.x <= Date.now())) cookie = null;
  if (cookie && !(await cookieHolderMayStay(app, cookie))) cookie = null;
  let grant: string | undefined;

  if (!cookie && app.access === 'code') {
    if (visit.method === 'POST' && !isApi) {
      const key = `${app.id}:${addressKey(visit.client.address)}`;
      const given = (visit.code ?? '').trim().toUpperCase().replace(/[\s-]/g, '');
      if (!given) return { kind: 'code', status: 400, name: app.name, error: 'Enter the code.' };
      if (given !== app.joinCode) {
        try {
          await codeTries.consume(key);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'rate_limited') return { kind: 'code', status: 429, name: app.name, error: error.message, headers: error.headers };
          throw error;
        }
        return { kind: 'code', status: 401, name: app.name, error: 'That code is not right.' };
      }
      grant = await grantFor(app, await recordEndUser(app.id, null, 'code'), false);
      return { kind: 'redirect', location: url.toString(), status: 303, grant };
    }
    return isApi ? apiError(401, 'unauthorized', 'Enter the join code first.') : { kind: 'code', status: 401, name: app.name, error: null };
  }
  if (!cookie && app.access === 'private') {
    // On the app's own origin the session says who the visitor is.
    const actor = visit.where === 'app-origin' ? visit.sessionActor : null;
    if (actor && (await roomAllows(app, actor.user.id))) {
      const endUser = await recordEndUser(app.id, actor.user.id, 'sign-in');
      grant = await grantFor(app, endUser, false);
      cookie = { a: app.id, e: app.accessEpoch, u: endUser, adm: false, x: 0 };
    } else if (actor) {
      return isApi ? apiError(404, 'not_found', NOT_FOUND) : notFound();
    } else if (isApi) {
      return apiError(401, 'unauthorized', 'Sign in first.');
    } else if (visit.where === 'own-host') {
      return { kind: 'redirect', location: `${config.publicUrl}/a/${slug}/${visit.inner}${url.search}`, status: 303 };
    } else {
      return { kind: 'redirect', location: signInUrl(url), status: 303 };
    }
  }
  const admin = cookie?.adm === true;
  const answer = isApi ? await answerApi(app, path.slice('_api/'.length), visit, admin, cookie?.u ?? null) : await answerFile(app, path, url);
  if (grant) answer.grant = grant;
  if (cookie?.u && !isApi && answer.kind === 'file') await db.appEndUser.updateMany({ where: { id: cookie.u }, data: { lastSeenAt: new Date() } });
  return answer;
}

async function answerFile(app: LiveApp, raw: string, url: URL): Promise<AppAnswer> {
  const refs = await versionRefs(app.spaceId, app.liveVersion!);
  if (!refs) return notFound();
  let path: string;
  try {
    const decoded = decodeURIComponent(raw);
    path = decoded === '' ? 'index.html' : decoded.endsWith('/') ? `${normalizePath(decoded.slice(0, -1))}/index.html` : normalizePath(decoded);
  } catch {
    return notFound();
  }
  const entry = await findEntry(refs, path);
  if (!entry) {
    if (!path.endsWith('index.html') && (await findEntry(refs, `${path}/index.html`))) return { kind: 'redirect', location: `${url.origin}${url.pathname}/${url.search}`, status: 308 };
    return notFound();
  }
  const headers = { 'content-security-policy': appCsp(), 'cache-control': 'private, no-cache' };
  return { kind: 'file', file: new FileAnswer({ sha256: entry.sha256, size: entry.size, contentType: contentTypeOf(entry.path, entry.contentType) }, headers) };
}

/** "Administrator" (owner link), "@handle" (signed in), or null (a join code or a public app). */
/** The owners' notice that a form table is full: an audit event (and its webhook), once, when the last row goes in. */
async function tableFull(app: LiveApp, table: string) {
  const { workspaceId } = await db.room.findUniqueOrThrow({ where: { id: app.roomId }, select: { workspaceId: true } });
  await db.$transaction((tx) => recordAudit(tx, { workspaceId, actor: null, action: 'app.table_full', target: { type: 'app', id: app.id, label: app.slug }, details: { table, rows: MAX_ROWS_PER_TABLE } }));
}

async function visitorLabel(admin: boolean, endUser: string | null): Promise<string | null> {
  if (admin) return 'Administrator';
  if (!endUser) return null;
  const row = await db.appEndUser.findUnique({ where: { id: endUser }, select: { userId: true } });
  const person = row?.userId ? await db.user.findUnique({ where: { id: row.userId }, select: { handle: true } }) : null;
  return person ? `@${person.handle}` : null;
}

async function answerApi(app: LiveApp, path: string, visit: AppVisit, admin: boolean, endUser: string | null): Promise<AppAnswer> {
  if (path === 'session') {
    if (visit.method !== 'GET') return apiError(405, 'method_not_allowed', 'Use GET.');
    return { kind: 'json', status: 200, body: { admin, label: await visitorLabel(admin, endUser) } };
  }
  const match = /^tables\/([a-z][a-z0-9_]{0,59})$/.exec(path);
  const spec = await specOf(app.spaceId, app.liveVersion!);
  const table = match && spec ? spec.tables.find((t) => t.name === match[1]) : undefined;
  if (!table) return apiError(404, 'not_found', 'No such table in this app.');
  if (visit.method === 'GET') return { kind: 'json', status: 200, body: { columns: table.columns, rows: await listRows(app.id, table) } };
  if (visit.method !== 'POST') return apiError(405, 'method_not_allowed', 'Use GET or POST.');
  if (!table.guestWrites && !admin) return apiError(403, 'forbidden', 'Visitors may not add rows to this table.');
  const values = (visit.json as { values?: unknown } | undefined)?.values;
  if (!values || typeof values !== 'object' || Array.isArray(values)) return apiError(400, 'bad_request', 'Send {"values": {column: text}}.');
  // Own properties only, into an object without a prototype: a column may be named `constructor` or `__proto__`.
  const row: Record<string, string> = Object.create(null);
  for (const column of table.columns) {
    const value = Object.hasOwn(values, column) ? (values as Record<string, unknown>)[column] : undefined;
    if (value === undefined || value === null) {
      row[column] = '';
      continue;
    }
    if (typeof value !== 'string' || value.length > 2000 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(value)) {
      return apiError(400, 'bad_request', `values.${column}: must be text of at most 2000 characters.`);
    }
    row[column] = value;
  }
  const unknown = Object.keys(values).find((k) => !table.columns.includes(k));
  if (unknown) return apiError(400, 'bad_request', `values.${unknown.slice(0, 100)}: no such column.`);
  if (!row[table.columns[0]]) return apiError(400, 'bad_request', `values.${table.columns[0]}: required.`);
  if (!admin) {
    try {
      await rowsPerAddress.consume(`${app.id}:${addressKey(visit.client.address)}`);
      await rowsPerApp.consume(app.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rate_limited') return apiError(429, 'rate_limited', error.message, error.headers);
      throw error;
    }
  }
  const count = await countRows(app.id, table);
  if (count >= MAX_ROWS_PER_TABLE) return apiError(403, 'forbidden', `This table is full (${MAX_ROWS_PER_TABLE} rows); its owner has been told.`);
  // A guest write in the live data's log, named as the session endpoint names the visitor.
  await addRow(app.id, table, row, { label: await visitorLabel(admin, endUser), client: visit.client });
  if (count + 1 === MAX_ROWS_PER_TABLE) await tableFull(app, table.name);
  return { kind: 'json', status: 201, body: { row } };
}
