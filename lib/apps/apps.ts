// Apps: records, builds, and the lifecycle.
//
// Statuses and what moves between them (docs/decisions.md, "Apps"):
//   (build of a new app) -> draft, or preview once a build succeeded
//   draft   --build succeeds--> preview
//   preview --POST live-------> live        (first time; plan's live-app limit)
//   live    --PATCH paused:true--> paused
//   paused  --PATCH paused:false-> live     (counts as live for the limit all along)
//   live/paused: promote and rollback change the live version, not the status.
// Rebuilds change only the preview version, whatever the status.
//
// Permissions are the room's (lib/access/rooms.ts): view to read, edit to
// build and get the owner link, manage for the lifecycle, users and export.
import { randomInt } from 'node:crypto';
import type { SignedInCaller } from '../core/caller.ts';
import { callerRoomRole, grantSelect, listedRooms, roomAccess, roomRoleCan } from '../access/rooms.ts';
import { recordAudit } from '../audit/log.ts';
import { limitsOf, requireUnderLimit } from '../billing/plans.ts';
import { config } from '../config.ts';
import { db, type Prisma } from '../db/client.ts';
import type { AppAccess, RoomKind, RoomRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { deliverNotifications, eventNotifications, queueNotifications } from '../notifications/notifications.ts';
import { pageMarkdown, pagesOf, UNREADABLE_PAGE } from '../rooms/document.ts';
import { currentRoomState } from '../rooms/document-store.ts';
import type { App, AppBuild, AppDeploy, AppEndUser } from '../schemas/apps.ts';
import { liveAppUrl, siteUrl } from '../spaces/hosts.ts';
import { diffManifests, type ChunkRef } from '../spaces/manifest.ts';
import { versionRefs } from '../spaces/publishing.ts';
import { spaceChanged } from '../spaces/space-cache.ts';
import * as Y from 'yjs';
import { aiSpec } from './ai.ts';
import { prepareLiveData, specOf, startLiveData, writePreviewData } from './data.ts';
import { publishFiles } from './publish.ts';
import { renderApp } from './render.ts';
import { appSpec, outlineSpec, type AppSpec } from './spec.ts';

const appSelect = {
  id: true,
  name: true,
  slug: true,
  status: true,
  access: true,
  joinCode: true,
  accessEpoch: true,
  previewVersion: true,
  liveVersion: true,
  liveSpaceId: true,
  appBuild: true,
  spaceId: true,
  roomId: true,
  createdAt: true,
  room: { select: { id: true, kind: true, name: true, workspace: { select: { id: true, slug: true, name: true, plan: true } } } },
} as const;

export type AppRow = Prisma.AppGetPayload<{ select: typeof appSelect }>;

export function appNotFound(id: string): ApiError {
  return new ApiError('not_found', `No app "${id.slice(0, 100)}" (or you cannot see it).`);
}

/** The app as the caller sees it, from their role in its room. */
export function toApp(row: AppRow, role: RoomRole): App {
  const canManage = roomRoleCan(role, 'manage');
  return {
    id: row.id,
    name: row.name,
    kind: 'web',
    slug: row.slug,
    status: row.status,
    room: { id: row.room.id, kind: row.room.kind, name: row.room.name, workspace: { id: row.room.workspace.id, slug: row.room.workspace.slug, name: row.room.workspace.name } },
    previewSpaceId: row.spaceId,
    previewVersion: row.previewVersion,
    previewUrl: `${siteUrl(row.spaceId)}${row.previewVersion ? `?v=${row.previewVersion}` : ''}`,
    liveVersion: row.liveVersion,
    liveDataSpaceId: row.liveSpaceId,
    liveUrl: row.liveVersion !== null ? liveAppUrl(row.slug) : null,
    access: row.access,
    joinCode: canManage && row.access === 'code' ? row.joinCode : null,
    build: row.appBuild as AppBuild,
    canManage,
    canEdit: roomRoleCan(role, 'edit'),
    createdAt: row.createdAt.getTime(),
  };
}

/** The app and the caller's role in its room; 404 without view on the room, 403 without `capability`. */
export async function appWith(userId: string, id: string, capability: 'view' | 'edit' | 'manage') {
  const row = await db.app.findUnique({ where: { id }, select: appSelect });
  if (!row) throw appNotFound(id);
  try {
    const { role } = await roomAccess(userId, row.room.kind, row.roomId, capability);
    return { row, role };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') throw appNotFound(id);
    if (error instanceof ApiError && error.code === 'forbidden') throw new ApiError('forbidden', `This needs ${capability} in the app's room.`);
    throw error;
  }
}

async function reload(id: string, role: RoomRole): Promise<App> {
  return toApp(await db.app.findUniqueOrThrow({ where: { id }, select: appSelect }), role);
}

// --- listing --------------------------------------------------------------------

/** Apps in rooms the caller can view (as rooms are listed: their workspaces' and those they were added to). */
export async function listApps({ actor }: SignedInCaller, query: { workspace?: string; room?: string }): Promise<App[]> {
  const userId = actor.user.id;
  const rows = await db.app.findMany({
    where: {
      ...(query.room ? { roomId: query.room } : {}),
      room: { ...(query.workspace ? { workspace: { slug: query.workspace } } : {}), ...listedRooms(userId) },
    },
    select: {
      ...appSelect,
      room: { select: { ...appSelect.room.select, ...grantSelect(userId).room, workspace: { select: { ...appSelect.room.select.workspace.select, ...grantSelect(userId).workspace } } } },
    },
    orderBy: { createdAt: 'desc' },
    take: 500,
  });
  // Listed rooms are viewable, so every row has a role.
  return rows.map((row) => toApp(row, callerRoomRole(row.room)!));
}

export async function getApp({ actor }: SignedInCaller, id: string): Promise<App> {
  const { row, role } = await appWith(actor.user.id, id, 'view');
  return toApp(row, role);
}

// --- building -------------------------------------------------------------------

const SLUG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function newSlug(name: string): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 30).replace(/-+$/, '') || 'app';
  let tail = '';
  for (let i = 0; i < 6; i++) tail += SLUG_ALPHABET[randomInt(SLUG_ALPHABET.length)];
  return `${base}-${tail}`;
}

// No 0/O or 1/I/L: read aloud and typed from a screen.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newJoinCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export type BuildInput = { pageId?: string; instructions?: string; appId?: string };

/**
 * Builds an app from a page of the room (the first page unless `pageId`): a
 * new app, or a new preview of `appId`. The build runs within the request.
 * A failed build is recorded on the app (`build.status` failed, with the
 * error) and leaves its preview as it was; a new app whose first build fails
 * stays a draft.
 */
export async function buildApp(caller: SignedInCaller, kind: RoomKind, roomId: string, input: BuildInput): Promise<{ app: App }> {
  const { actor } = caller;
  const { room, role } = await roomAccess(actor.user.id, kind, roomId, 'edit');
  const [stored, state] = await Promise.all([db.room.findUniqueOrThrow({ where: { id: roomId }, select: { name: true } }), currentRoomState(roomId)]);
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  const pages = pagesOf(doc);
  const page = input.pageId ? pages.find((p) => p.id === input.pageId) : pages[0];
  if (!page) {
    doc.destroy();
    throw new ApiError(input.pageId ? 'not_found' : 'conflict', input.pageId ? `No page "${input.pageId.slice(0, 100)}" in this room.` : 'This room has no page to build from.');
  }
  const markdown = pageMarkdown(doc, page.id);
  doc.destroy();
  if (markdown === UNREADABLE_PAGE) throw new ApiError('conflict', `The page "${page.title.slice(0, 100)}" cannot be read (it does not fit the document model): build from another page.`);

  let appId = input.appId;
  if (appId) {
    const existing = await db.app.findUnique({ where: { id: appId }, select: { roomId: true } });
    if (!existing || existing.roomId !== roomId) throw appNotFound(appId);
  } else {
    const name = (page.title && page.title !== 'Untitled' && !/^Page \d+$/.test(page.title) ? page.title : stored.name).slice(0, 100);
    appId = newId('app');
    const spaceId = newId('space');
    const id = appId;
    await db.$transaction(async (tx) => {
      // The preview is a members-only space of the room's workspace, of kind app.
      await tx.space.create({ data: { id: spaceId, workspaceId: room.workspace.id, name: `App: ${name}`, kind: 'app', visibility: 'members', createdById: actor.user.id } });
      await tx.app.create({
        data: { id, roomId, spaceId, name, slug: newSlug(name), status: 'draft', appBuild: {}, createdById: actor.user.id },
      });
    });
  }

  const startedAt = Date.now();
  const log: string[] = [];
  const note = (line: string) => log.push(line);
  const builder: AppBuild['builder'] = config.ai ? 'ai' : 'outline';
  let build: AppBuild;
  try {
    note(`page "${page.title}" (${markdown.length} characters of Markdown)`);
    const spec: AppSpec = builder === 'ai' ? await aiSpec(markdown, input.instructions ?? null, stored.name, note) : outlineSpec(markdown, page.title || stored.name);
    // The outline builder's spec meets the same limits as the AI's, or the build fails saying which.
    const past = appSpec.safeParse(spec).error?.issues[0];
    if (past) throw new Error(`the page makes an app past the builder's limits (${past.path.join('.')}: ${past.message})`);
    if (builder === 'outline' && input.instructions) note('instructions are read by the AI builder only (AI_BASE_URL is not set)');
    note(`${spec.pages.length} page(s): ${spec.pages.map((p) => p.title).join(', ')}`);
    note(`${spec.tables.length} table(s)${spec.tables.length ? `: ${spec.tables.map((t) => `${t.name} (${t.rows.length} rows${t.guestWrites ? ', visitors may add' : ''})`).join(', ')}` : ''}`);
    const files = renderApp(spec);
    const app = await db.app.findUniqueOrThrow({ where: { id: appId }, select: { spaceId: true } });
    const version = await publishFiles(app.spaceId, actor.user.id, files, `Build of "${page.title}"`);
    note(`published ${files.length} files as version ${version}`);
    await writePreviewData(app.spaceId, spec, actor.user.id);
    if (spec.tables.length) note(`wrote ${spec.tables.length} table(s) into the preview's database`);
    build = { status: 'succeeded', builder, pageId: page.id, instructions: input.instructions ?? null, startedAt, finishedAt: Date.now(), version, log, error: null };
    // A new app was named after its page until now; its first build names it, its space and its address after the app.
    await db.app.update({
      where: { id: appId },
      data: { appBuild: build, previewVersion: version, ...(input.appId ? {} : { name: spec.name, slug: newSlug(spec.name), space: { update: { name: `App: ${spec.name}` } } }) },
    });
    await db.app.updateMany({ where: { id: appId, status: 'draft' }, data: { status: 'preview' } });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    note(`failed: ${message}`);
    build = { status: 'failed', builder, pageId: page.id, instructions: input.instructions ?? null, startedAt, finishedAt: Date.now(), version: null, log, error: message };
    await db.app.update({ where: { id: appId }, data: { appBuild: build } });
  }
  await db.room.updateMany({ where: { id: roomId }, data: { lastActivity: `app built by @${actor.user.handle}`, lastActivityAt: new Date() } });
  return { app: await reload(appId, role) };
}

// --- lifecycle ------------------------------------------------------------------

type Tx = Prisma.TransactionClient;

async function addDeploy(tx: Tx, appId: string, version: number, kind: 'live' | 'promote' | 'rollback', actor: SignedInCaller['actor']): Promise<number> {
  const [last] = await tx.$queryRaw<{ n: number | null }[]>`SELECT MAX("number") AS n FROM "AppDeploy" WHERE "appId" = ${appId}`;
  const number = (last?.n ?? 0) + 1;
  await tx.appDeploy.create({ data: { appId, number, version, kind, actorId: actor.user.id, actorHandle: actor.user.handle } });
  return number;
}

const auditTarget = (row: AppRow) => ({ type: 'app', id: row.id, label: row.name });
const auditActor = (caller: SignedInCaller) => ({ id: caller.actor.user.id, handle: caller.actor.user.handle });

function requireLive(row: AppRow) {
  if (row.liveVersion === null) throw new ApiError('conflict', 'This app is not live yet; put it live first (POST /v1/apps/{id}/live).');
}

export async function goLive(caller: SignedInCaller, id: string, input: { access: AppAccess; copyData: boolean }): Promise<App> {
  const { row } = await appWith(caller.actor.user.id, id, 'manage');
  if (row.previewVersion === 0) throw new ApiError('conflict', 'This app has no preview yet: build it first.');
  if (row.liveVersion !== null) throw new ApiError('conflict', 'This app is already live; use promote to put a newer preview live.');
  const spec = await specOf(row.spaceId, row.previewVersion);
  const workspace = row.room.workspace;
  const liveApps = (client: Pick<typeof db, 'app'>) => client.app.count({ where: { status: { in: ['live', 'paused'] }, room: { workspaceId: workspace.id } } });
  // Checked again under the lock below; here so that a refused go-live makes no data space.
  if (limitsOf(workspace).liveApps !== null) requireUnderLimit(workspace, 'liveApps', await liveApps(db));
  // The data first, the switch to live last: a go-live cut short (a crash, a kill -9) is not
  // live at all, and the next try starts the data over (startLiveData empties it first).
  if (spec) await startLiveData(id, row.spaceId, spec, input.copyData, caller.actor.user.id);
  const notifications = await db.$transaction(async (tx) => {
    // Under the workspace's lock, so two go-lives racing for the last slot cannot both pass.
    await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE id = ${workspace.id} FOR UPDATE`;
    const [fresh] = await tx.$queryRaw<{ liveVersion: number | null }[]>`SELECT "liveVersion" FROM "App" WHERE id = ${id} FOR UPDATE`;
    if (!fresh) throw appNotFound(id);
    if (fresh.liveVersion !== null) throw new ApiError('conflict', 'This app is already live; use promote to put a newer preview live.');
    if (limitsOf(workspace).liveApps !== null) requireUnderLimit(workspace, 'liveApps', await liveApps(tx));
    await tx.app.update({
      where: { id },
      data: { status: 'live', access: input.access, joinCode: input.access === 'code' ? newJoinCode() : null, liveVersion: row.previewVersion, accessEpoch: { increment: 1 } },
    });
    const deploy = await addDeploy(tx, id, row.previewVersion, 'live', caller.actor);
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actor: auditActor(caller),
      action: 'app.went_live',
      target: auditTarget(row),
      details: { version: row.previewVersion, deploy, access: input.access, copyData: input.copyData },
    });
    const members = await tx.membership.findMany({ where: { workspaceId: workspace.id, status: 'accepted' }, select: { userId: true } });
    const rows = eventNotifications(caller.actor.user.id, members.map(({ userId }) => ({ userId, kind: 'app_live' as const, workspaceId: workspace.id, appId: id })));
    await queueNotifications(tx, rows);
    return rows;
  });
  await deliverNotifications(notifications);
  return reload(id, 'owner');
}

export async function promoteApp(caller: SignedInCaller, id: string): Promise<App> {
  const { row } = await appWith(caller.actor.user.id, id, 'manage');
  requireLive(row);
  if (row.liveVersion === row.previewVersion) throw new ApiError('conflict', `Version ${row.previewVersion} is already live; build again to have something to promote.`);
  return makeLive(caller, row, row.previewVersion, 'promote', { action: 'app.promoted', details: {} });
}

export async function rollbackApp(caller: SignedInCaller, id: string, deployNumber: number): Promise<App> {
  const { row } = await appWith(caller.actor.user.id, id, 'manage');
  requireLive(row);
  const target = await db.appDeploy.findUnique({ where: { appId_number: { appId: id, number: deployNumber } } });
  if (!target) throw new ApiError('not_found', `No deploy ${deployNumber} of this app.`);
  if (target.version === row.liveVersion) throw new ApiError('conflict', `Version ${target.version} (deploy ${deployNumber}) is what is live already.`);
  return makeLive(caller, row, target.version, 'rollback', { action: 'app.rolled_back', details: { toDeploy: deployNumber } });
}

/** Puts `version` live (a promotion or a rollback): its data prepared, then the switch, its deploy and its audit entry in one transaction. */
async function makeLive(caller: SignedInCaller, row: AppRow, version: number, kind: 'promote' | 'rollback', audit: { action: 'app.promoted' | 'app.rolled_back'; details: Record<string, number> }): Promise<App> {
  const spec = await specOf(row.spaceId, version);
  if (spec) await prepareLiveData(row.id, spec, caller.actor.user.id);
  await db.$transaction(async (tx) => {
    await tx.app.update({ where: { id: row.id }, data: { liveVersion: version } });
    const deploy = await addDeploy(tx, row.id, version, kind, caller.actor);
    await recordAudit(tx, {
      workspaceId: row.room.workspace.id,
      actor: auditActor(caller),
      action: audit.action,
      target: auditTarget(row),
      details: { from: row.liveVersion, version, ...audit.details, deploy },
    });
  });
  return reload(row.id, 'owner');
}

export type PatchAppInput = { name?: string; access?: AppAccess; newJoinCode?: boolean; paused?: boolean };

export async function patchApp(caller: SignedInCaller, id: string, input: PatchAppInput): Promise<App> {
  const { row } = await appWith(caller.actor.user.id, id, 'manage');
  const access = input.access ?? row.access;
  if (input.newJoinCode && access !== 'code') throw new ApiError('conflict', 'Only an app opened with a join code has one to renew; set access to "code".');
  if (input.paused !== undefined) requireLive(row);
  await db.$transaction(async (tx) => {
    const data: Prisma.AppUpdateInput = {};
    if (input.name !== undefined) data.name = input.name;
    const accessChanged = input.access !== undefined && input.access !== row.access;
    const renew = input.newJoinCode === true || (accessChanged && access === 'code');
    if (accessChanged) data.access = access;
    if (accessChanged && access !== 'code') data.joinCode = null;
    if (renew) data.joinCode = newJoinCode();
    // Earlier visitors' cookies stop working: they pass the new rules again.
    if (accessChanged || renew) data.accessEpoch = { increment: 1 };
    if (input.paused === true && row.status === 'live') data.status = 'paused';
    if (input.paused === false && row.status === 'paused') data.status = 'live';
    await tx.app.update({ where: { id }, data });
    const base = { workspaceId: row.room.workspace.id, actor: auditActor(caller), target: auditTarget(row) };
    if (accessChanged || renew) await recordAudit(tx, { ...base, action: 'app.access_changed', details: { from: row.access, access, newJoinCode: renew } });
    if (data.status === 'paused') await recordAudit(tx, { ...base, action: 'app.paused' });
    if (data.status === 'live') await recordAudit(tx, { ...base, action: 'app.resumed' });
  });
  return reload(id, 'owner');
}

export async function deleteApp(caller: SignedInCaller, id: string): Promise<void> {
  const { row } = await appWith(caller.actor.user.id, id, 'manage');
  await db.$transaction(async (tx) => {
    // The space's deletion takes the app, its deploys, users and preview data with it; the live data's space goes too.
    const deleted = await tx.space.deleteMany({ where: { id: row.spaceId } });
    if (deleted.count === 0) throw appNotFound(id);
    if (row.liveSpaceId) await tx.space.deleteMany({ where: { id: row.liveSpaceId } });
    await recordAudit(tx, { workspaceId: row.room.workspace.id, actor: auditActor(caller), action: 'app.deleted', target: auditTarget(row) });
  });
  spaceChanged(row.spaceId);
  if (row.liveSpaceId) spaceChanged(row.liveSpaceId);
}

export async function listDeploys({ actor }: SignedInCaller, id: string): Promise<{ deploys: AppDeploy[] }> {
  const { row } = await appWith(actor.user.id, id, 'view');
  const rows = await db.appDeploy.findMany({ where: { appId: id }, orderBy: { number: 'desc' } });
  const current = rows.find((r) => r.version === row.liveVersion)?.number;
  // Each deploy against the one before it (rows are newest first); versions share
  // most manifest chunks, which the diff never decodes.
  const refs = new Map<number, Promise<ChunkRef[]>>();
  const refsOf = (version: number) => {
    if (!refs.has(version)) refs.set(version, versionRefs(row.spaceId, version).then((r) => r ?? []));
    return refs.get(version)!;
  };
  const changes = await Promise.all(rows.map(async (r, i) => diffManifests(rows[i + 1] ? await refsOf(rows[i + 1].version) : [], await refsOf(r.version))));
  return {
    deploys: rows.map((r, i) => ({
      deploy: r.number,
      version: r.version,
      kind: r.kind,
      actor: r.actorId && r.actorHandle ? { id: r.actorId, handle: r.actorHandle } : null,
      // The newest deploy is what is live (every change of the live version is a deploy).
      current: r.number === rows[0].number && current !== undefined,
      changes: changes[i],
      createdAt: r.createdAt.getTime(),
    })),
  };
}

export async function listEndUsers({ actor }: SignedInCaller, id: string): Promise<{ users: AppEndUser[] }> {
  await appWith(actor.user.id, id, 'manage');
  const rows = await db.appEndUser.findMany({ where: { appId: id }, orderBy: { lastSeenAt: 'desc' }, take: 1000 });
  const people = await db.user.findMany({ where: { id: { in: rows.flatMap((r) => (r.userId ? [r.userId] : [])) } }, select: { id: true, handle: true, name: true } });
  const byId = new Map(people.map((p) => [p.id, p]));
  return {
    users: rows.map((r) => ({
      id: r.id,
      user: r.userId ? (byId.get(r.userId) ?? null) : null,
      via: r.via as AppEndUser['via'],
      firstSeenAt: r.firstSeenAt.getTime(),
      lastSeenAt: r.lastSeenAt.getTime(),
    })),
  };
}
