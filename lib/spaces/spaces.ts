// Space records: loading a space with what the caller may do, listing,
// creating, changing, and the head summary.
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { rolesWith, workspaceRoleCan } from '../access/capabilities.ts';
import { notFound, permissionsFor, requirePermission, standingFrom, type SpacePermissions } from '../access/spaces.ts';
import { siteUrl } from './hosts.ts';
import { db, Prisma, query } from '../db/client.ts';
import type { Plan, WorkspaceRole } from '../db/generated/client.ts';
import { forgetToken, LIVE_TOKEN, TOKEN_REFUSED } from '../auth/tokens.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import type { Space } from '../schemas/spaces.ts';
import { hashPassword } from './password.ts';
import { anonymousRecord, spaceChanged } from './space-cache.ts';
import { unlockTokenValid } from './unlock.ts';

const spaceInclude = {
  workspace: { select: { id: true, slug: true, name: true } },
} satisfies Prisma.SpaceInclude;

export type SpaceRow = Prisma.SpaceGetPayload<{ include: typeof spaceInclude }>;

/**
 * `dbHead` and `plan`: the head of the space's database history (its SpaceDatabase.headSeq) and its
 * workspace's plan as this request's own statement read them, or null when the record came from the
 * anonymous callers' cache.
 */
export type LoadedSpace = { space: SpaceRow; permissions: SpacePermissions; dbHead: number | null; plan: Plan | null };

/**
 * The space, its workspace and plan, the caller's standing towards it and the
 * head of its database's history in one plain statement: every request about a
 * space (each file of a published site among them) starts here, and a query of
 * the space's database needs no statement of its own for the head or the
 * plan's size cap. It also says whether the caller's token is live ($3), so a
 * route may name the caller from a recent lookup (Endpoint.checksOwnToken):
 * one row whether or not the space exists.
 */
const LOAD_SPACE = `
  SELECT sp.*, EXISTS (SELECT 1 FROM "Token" t WHERE t."id" = $3 AND t."userId" = $2 AND ${LIVE_TOKEN}) AS "tokenLive"
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (
    SELECT s."id", s."workspaceId", s."name", s."kind", s."visibility", s."guestComments", s."guestWrites",
      s."passwordHash", s."latestVersion", s."createdById", s."createdAt", s."commentsUpdatedAt", s."uploadsUpdatedAt",
      w."slug" AS "workspaceSlug", w."name" AS "workspaceName", w."plan" AS "plan",
      (SELECT m."role" FROM "Membership" m WHERE m."workspaceId" = s."workspaceId" AND m."userId" = $2 AND m."status" = 'accepted') AS "role",
      EXISTS (SELECT 1 FROM "SpaceViewer" v WHERE v."spaceId" = s."id" AND v."userId" = $2) AS "listedViewer",
      COALESCE((SELECT d."headSeq" FROM "SpaceDatabase" d WHERE d."spaceId" = s."id"), 0) AS "dbHead"
    FROM "Space" s JOIN "Workspace" w ON w."id" = s."workspaceId"
    WHERE s."id" = $1
  ) AS sp ON true`;

type LoadRow = Omit<SpaceRow, 'workspace'> & { workspaceSlug: string; workspaceName: string; plan: Plan; role: WorkspaceRole | null; listedViewer: boolean; dbHead: number };
/** LOAD_SPACE's one row: the space's columns are null when there is no such space. */
type LoadAnswer = Omit<LoadRow, 'id'> & { id: string | null; tokenLive: boolean };

/**
 * The space and the caller's permissions; not_found when it does not exist or
 * is hidden from them. With `ownToken` (a route that names the caller from a
 * recent lookup: Endpoint.checksOwnToken), unauthorized when the caller's
 * token is no longer live.
 */
export async function loadSpace(caller: Caller, id: string, { ownToken = false } = {}): Promise<LoadedSpace> {
  let fresh = false;
  let tokenLive = false;
  const load = async (): Promise<LoadRow | undefined> => {
    fresh = true;
    const [{ tokenLive: live, id: found, ...fields }] = await query<LoadAnswer>(LOAD_SPACE, [id, caller.actor?.user.id ?? null, caller.actor?.token.id ?? null]);
    tokenLive = live;
    return found === null ? undefined : { ...fields, id: found };
  };
  // Someone who is nobody in particular stands the same towards a space as anyone else: their record is kept (space-cache.ts).
  const row = caller.actor || caller.spaceToken ? await load() : await anonymousRecord(id, load);
  if (ownToken && caller.actor && !tokenLive) {
    forgetToken(caller.actor.token.id);
    throw new ApiError('unauthorized', TOKEN_REFUSED);
  }
  if (!row) throw notFound(id);
  const { workspaceSlug, workspaceName, plan, role, listedViewer, dbHead, ...fields } = row;
  const space: SpaceRow = { ...fields, workspace: { id: fields.workspaceId, slug: workspaceSlug, name: workspaceName } };
  let permissions = permissionsFor(space, standingFrom(role, listedViewer));
  if (!permissions.view && space.passwordHash !== null && caller.spaceToken && (await unlockTokenValid(space.id, caller.spaceToken))) {
    permissions = permissionsFor(space, standingFrom(role, listedViewer, true));
  }
  if (!permissions.view && space.visibility !== 'public') throw notFound(id);
  return { space, permissions, dbHead: fresh ? dbHead : null, plan: fresh ? plan : null };
}

/** Loads the space and requires one permission of the caller (see access.ts for the statuses); `ownToken` as for loadSpace. */
export async function spaceWith(caller: Caller, id: string, need: keyof SpacePermissions, options: { ownToken?: boolean } = {}): Promise<LoadedSpace> {
  const loaded = await loadSpace(caller, id, options);
  requirePermission(loaded.space, loaded.permissions, need);
  return loaded;
}

async function viewersOf(spaceIds: string[]): Promise<Map<string, { id: string; handle: string; name: string | null }[]>> {
  const rows = await db.spaceViewer.findMany({
    where: { spaceId: { in: spaceIds } },
    select: { spaceId: true, user: { select: { id: true, handle: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const map = new Map<string, { id: string; handle: string; name: string | null }[]>();
  for (const row of rows) map.set(row.spaceId, [...(map.get(row.spaceId) ?? []), row.user]);
  return map;
}

function record(space: SpaceRow, permissions: SpacePermissions, viewers: { id: string; handle: string; name: string | null }[]): Space {
  const url = siteUrl(space.id);
  return {
    id: space.id,
    name: space.name,
    workspace: space.workspace,
    visibility: space.visibility,
    guestComments: space.guestComments,
    guestWrites: space.guestWrites,
    viewers: { users: permissions.push ? viewers : [] },
    passwordProtected: space.passwordHash !== null,
    latestVersion: space.latestVersion,
    path: `/spaces/${space.id}`,
    url,
    shareUrl: space.visibility === 'public' ? url : null,
    kind: space.kind,
    permissions,
    createdAt: space.createdAt.getTime(),
  };
}

export async function spaceRecord(loaded: LoadedSpace): Promise<Space> {
  const viewers = loaded.permissions.push ? ((await viewersOf([loaded.space.id])).get(loaded.space.id) ?? []) : [];
  return record(loaded.space, loaded.permissions, viewers);
}

export async function getSpace(caller: Caller, id: string): Promise<Space> {
  return spaceRecord(await loadSpace(caller, id));
}

/**
 * With a workspace (slug or id): its spaces the caller can see (an unknown
 * workspace gives an empty list). Without: every space the caller can push to.
 * Newest first.
 */
export async function listSpaces({ actor }: SignedInCaller, workspace: string | undefined): Promise<Space[]> {
  const memberships = await db.membership.findMany({
    where: { userId: actor.user.id, status: 'accepted', ...(workspace ? { workspace: { OR: [{ slug: workspace }, { id: workspace }] } } : { role: { in: rolesWith('push') } }) },
    select: { workspaceId: true, role: true },
  });
  const roles = new Map(memberships.map((m) => [m.workspaceId, m.role]));
  const where: Prisma.SpaceWhereInput = workspace
    ? {
        workspace: { OR: [{ slug: workspace }, { id: workspace }] },
        OR: [{ workspaceId: { in: [...roles.keys()] } }, { visibility: 'public' }, { viewers: { some: { userId: actor.user.id } } }],
      }
    : { workspaceId: { in: [...roles.keys()] } };
  const spaces = await db.space.findMany({
    where,
    include: { ...spaceInclude, viewers: { where: { userId: actor.user.id }, select: { userId: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return listedRecords(spaces, roles);
}

/**
 * The spaces of the workspaces the caller belongs to (`roles`: their role in
 * each), newest first by their latest push or, before any, their creation;
 * at most `limit` of them: the dashboard's cards, in three statements however
 * many workspaces there are. Only sites people push (kind repo): an app's own
 * spaces show on the app's page.
 */
export async function memberSpaces({ actor }: SignedInCaller, roles: Map<string, WorkspaceRole>, limit: number | null): Promise<Space[]> {
  const order = await db.$queryRaw<{ id: string }[]>`
    SELECT s."id" FROM "Space" s
    LEFT JOIN "Version" v ON v."spaceId" = s."id" AND v."number" = s."latestVersion"
    WHERE s."workspaceId" = ANY(${[...roles.keys()]}::text[]) AND s."kind" = 'repo'
    ORDER BY COALESCE(v."createdAt", s."createdAt") DESC, s."id"
    LIMIT ${limit}`;
  const rank = new Map(order.map((row, i) => [row.id, i]));
  const spaces = await db.space.findMany({
    where: { id: { in: [...rank.keys()] } },
    include: { ...spaceInclude, viewers: { where: { userId: actor.user.id }, select: { userId: true } } },
  });
  return listedRecords(spaces.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!), roles);
}

/** Records of listed spaces, each with the caller's permissions from their role in its workspace or a viewer's row. */
async function listedRecords(spaces: (SpaceRow & { viewers: unknown[] })[], roles: Map<string, WorkspaceRole>): Promise<Space[]> {
  const listed = spaces.map((space) => {
    const permissions = permissionsFor(space, { role: roles.get(space.workspaceId) ?? null, listedViewer: space.viewers.length > 0, unlocked: false });
    return { space, permissions };
  });
  const viewers = await viewersOf(listed.filter((l) => l.permissions.push).map((l) => l.space.id));
  return listed.map(({ space, permissions }) => record(space, permissions, viewers.get(space.id) ?? []));
}

export async function createSpace({ actor }: SignedInCaller, input: { workspace: string; name: string; visibility: 'public' | 'members' }): Promise<Space> {
  const workspace = await db.workspace.findFirst({
    where: { OR: [{ slug: input.workspace }, { id: input.workspace }] },
    select: { id: true, memberships: { where: { userId: actor.user.id, status: 'accepted' }, select: { role: true } } },
  });
  const role = workspace?.memberships[0]?.role;
  if (!workspace || !role) throw new ApiError('not_found', `No workspace ${input.workspace}, or you are not a member.`);
  if (!workspaceRoleCan(role, 'push')) throw new ApiError('forbidden', `Your role in this workspace (${role}) cannot create spaces: it needs one that can push.`);
  const space = await db.space.create({
    data: { id: newId('space'), workspaceId: workspace.id, name: input.name, visibility: input.visibility, createdById: actor.user.id },
    include: spaceInclude,
  });
  return record(space, permissionsFor(space, { role, listedViewer: false, unlocked: false }), []);
}

export type SpacePatch = {
  name?: string;
  visibility?: 'public' | 'members';
  guestComments?: boolean;
  guestWrites?: boolean;
  viewers?: { handles: string[] };
  password?: string | null;
};

export async function patchSpace(caller: SignedInCaller, id: string, patch: SpacePatch): Promise<Space> {
  const { space } = await spaceWith(caller, id, 'manage');
  let viewerIds: string[] | undefined;
  if (patch.viewers) {
    const handles = [...new Set(patch.viewers.handles)];
    const users = await db.user.findMany({ where: { handle: { in: handles } }, select: { id: true, handle: true } });
    const unknown = handles.filter((h) => !users.some((u) => u.handle === h));
    if (unknown.length) throw new ApiError('bad_request', `body.viewers.handles: no user ${unknown.map((h) => `@${h}`).join(', ')}.`);
    viewerIds = users.map((u) => u.id);
  }
  const passwordHash = patch.password === undefined ? undefined : patch.password === null ? null : await hashPassword(patch.password);
  await db.$transaction([
    db.space.update({
      where: { id: space.id },
      data: { name: patch.name, visibility: patch.visibility, guestComments: patch.guestComments, guestWrites: patch.guestWrites, passwordHash },
    }),
    // A new or removed password closes every door the old one opened.
    ...(passwordHash !== undefined ? [db.spaceAccessToken.deleteMany({ where: { spaceId: space.id, purpose: 'unlock' } })] : []),
    ...(viewerIds
      ? [
          db.spaceViewer.deleteMany({ where: { spaceId: space.id, userId: { notIn: viewerIds } } }),
          db.spaceViewer.createMany({ data: viewerIds.map((userId) => ({ spaceId: space.id, userId })), skipDuplicates: true }),
        ]
      : []),
  ]);
  spaceChanged(space.id);
  return getSpace(caller, space.id);
}

export async function spaceHead(caller: Caller, id: string) {
  const { space } = await spaceWith(caller, id, 'view');
  const uploads = await db.upload.count({ where: { spaceId: space.id } });
  return {
    latestVersion: space.latestVersion,
    commentsUpdatedAt: space.commentsUpdatedAt.getTime(),
    uploads,
    uploadsUpdatedAt: space.uploadsUpdatedAt?.getTime() ?? 0,
  };
}
