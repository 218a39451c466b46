// Who may do what in a room or live space. A person's room role is the highest
// of three grants:
//   - their workspace role: owner and admin -> owner, member -> editor,
//     viewer -> commenter (workspace viewers may comment, capabilities.ts);
//   - a role given in the room itself (RoomMember: added by handle or by an
//     accepted invite), which also lets people outside the workspace in;
//   - the room's linkAccess, for anyone signed in who has the room's link.
// Room roles carry the capabilities view, comment, edit and manage, one
// meaning each as in capabilities.ts. Rooms the caller cannot view are 404.
import { db, query, type Prisma, type PrismaClient } from '../db/client.ts';
import type { RoomKind, RoomLinkAccess, RoomRole, WorkspaceRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { joinedWorkspaces } from './workspaces.ts';

export type RoomCapability = 'view' | 'comment' | 'edit' | 'manage';
export type RoomCaps = Record<RoomCapability, boolean>;

export const ROOM_ROLES: RoomRole[] = ['viewer', 'commenter', 'editor', 'owner'];

const ROOM_ROLE_CAPS: Record<RoomRole, RoomCapability[]> = {
  owner: ['view', 'comment', 'edit', 'manage'],
  editor: ['view', 'comment', 'edit'],
  commenter: ['view', 'comment'],
  viewer: ['view'],
};

export const WORKSPACE_TO_ROOM: Record<WorkspaceRole, RoomRole> = { owner: 'owner', admin: 'owner', member: 'editor', viewer: 'commenter' };

export function roomRoleCan(role: RoomRole | null, capability: RoomCapability): boolean {
  return role !== null && ROOM_ROLE_CAPS[role].includes(capability);
}

export function capsOf(role: RoomRole | null): RoomCaps {
  return { view: roomRoleCan(role, 'view'), comment: roomRoleCan(role, 'comment'), edit: roomRoleCan(role, 'edit'), manage: roomRoleCan(role, 'manage') };
}

export function higherRole(a: RoomRole | null, b: RoomRole | null): RoomRole | null {
  if (a === null) return b;
  if (b === null) return a;
  return ROOM_ROLES.indexOf(a) >= ROOM_ROLES.indexOf(b) ? a : b;
}

export function roleOf(grants: { workspaceRole: WorkspaceRole | null; roomRole: RoomRole | null; linkAccess: RoomLinkAccess }): RoomRole | null {
  const link = grants.linkAccess === 'none' ? null : grants.linkAccess;
  return higherRole(higherRole(grants.workspaceRole ? WORKSPACE_TO_ROOM[grants.workspaceRole] : null, grants.roomRole), link);
}

/** The caller's role from a room row selected with their own grants only (`grantSelect`). */
export function callerRoomRole(room: { linkAccess: RoomLinkAccess; members: { role: RoomRole }[]; workspace: { memberships: { role: WorkspaceRole }[] } }): RoomRole | null {
  return roleOf({ workspaceRole: room.workspace.memberships[0]?.role ?? null, roomRole: room.members[0]?.role ?? null, linkAccess: room.linkAccess });
}

export const KIND_NOUN: Record<RoomKind, string> = { room: 'room', live: 'live space' };

export function roomNotFound(kind: RoomKind, id: string): ApiError {
  return new ApiError('not_found', `No ${KIND_NOUN[kind]} "${id.slice(0, 100)}" (or you cannot see it).`);
}

type Client = Pick<PrismaClient, 'room'>;

/**
 * The rooms a person finds in lists and search: those of their workspaces and
 * those they were added to. Link access alone lists nothing: the link is the way in.
 */
export function listedRooms(userId: string): Prisma.RoomWhereInput {
  return { OR: [{ workspace: joinedWorkspaces(userId) }, { members: { some: { userId } } }] };
}

/**
 * The person's own grants, as `callerRoomRole` reads them: spread into a
 * room's select (`room`) and into its workspace's (`workspace`), beside
 * whatever else the query reads of them.
 */
export const grantSelect = (userId: string) =>
  ({
    room: { linkAccess: true, members: { where: { userId }, select: { role: true } } },
    workspace: { memberships: { where: { userId, status: 'accepted' }, select: { role: true } } },
  }) as const;

export const roomAccessSelect = (userId: string) =>
  ({
    id: true,
    kind: true,
    workspaceId: true,
    ...grantSelect(userId).room,
    workspace: { select: { id: true, slug: true, name: true, plan: true, ...grantSelect(userId).workspace } },
  }) as const;

/** Who holds a room socket: the person, the token their ticket was issued to, and the room. */
export type SocketHolder = { roomId: string; kind: RoomKind; userId: string; tokenId: string };

const SOCKET_ROLES = `
  SELECT h.i::int AS i, r.kind::text AS kind, r."linkAccess"::text AS link,
    (SELECT m.role::text FROM "RoomMember" m WHERE m."roomId" = r.id AND m."userId" = h.user_id) AS "roomRole",
    (SELECT w.role::text FROM "Membership" w WHERE w."workspaceId" = r."workspaceId" AND w."userId" = h.user_id AND w.status = 'accepted') AS "workspaceRole",
    EXISTS (SELECT 1 FROM "Token" t WHERE t.id = h.token_id AND t."userId" = h.user_id AND (t."expiresAt" IS NULL OR t."expiresAt" > now())) AS token
  FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS h(room_id, user_id, token_id, i)
  LEFT JOIN "Room" r ON r.id = h.room_id`;

/**
 * The current room role of each socket holder, in order: null when the room
 * is gone or of another kind, the token was revoked or expired, or no grant
 * remains. Room sockets decide from this at the upgrade, at every Auth and at
 * every re-check; it is one query however many sockets (of however many
 * rooms) are asked about, since a node re-checks all of its sockets at once.
 */
export async function socketRoles(holders: SocketHolder[]): Promise<(RoomRole | null)[]> {
  if (holders.length === 0) return [];
  const rows = await query<{ i: number; kind: RoomKind | null; link: RoomLinkAccess | null; roomRole: RoomRole | null; workspaceRole: WorkspaceRole | null; token: boolean }>(SOCKET_ROLES, [
    holders.map((h) => h.roomId),
    holders.map((h) => h.userId),
    holders.map((h) => h.tokenId),
  ]);
  const roles: (RoomRole | null)[] = holders.map(() => null);
  for (const row of rows) {
    const holder = holders[row.i - 1];
    if (row.kind !== holder.kind || !row.token || !row.link) continue;
    roles[row.i - 1] = roleOf({ workspaceRole: row.workspaceRole, roomRole: row.roomRole, linkAccess: row.link });
  }
  return roles;
}

/** The room and the caller's role in it; 404 without view, 403 without `capability`. */
export async function roomAccess(userId: string, kind: RoomKind, id: string, capability: RoomCapability, client: Client = db) {
  const room = await client.room.findUnique({ where: { id }, select: roomAccessSelect(userId) });
  if (!room || room.kind !== kind) throw roomNotFound(kind, id);
  const role = callerRoomRole(room);
  if (!roomRoleCan(role, 'view')) throw roomNotFound(kind, id);
  if (!roomRoleCan(role, capability)) {
    throw new ApiError('forbidden', `This needs ${capability} in this ${KIND_NOUN[kind]}; your role is ${role}.`);
  }
  return { room, role: role! };
}

type GrantClient = Pick<PrismaClient, 'roomMember' | 'roomInvite'>;

/** One person's room grants in a workspace's rooms and live spaces (and so in the apps built from them). */
function grantsInWorkspace(workspaceId: string, userId: string): Prisma.RoomMemberWhereInput {
  return { userId, room: { workspaceId } };
}

/** The grants the workspace's (accepted) members hold in its rooms and live spaces, with the apps built from each room, oldest first. */
export function membersRoomGrants(workspaceId: string) {
  return db.roomMember.findMany({
    where: { room: { workspaceId }, user: { memberships: { some: { workspaceId, status: 'accepted' } } } },
    select: { role: true, user: { select: { handle: true } }, room: { select: { id: true, kind: true, name: true, apps: { select: { id: true, name: true }, orderBy: { createdAt: 'asc' } } } } },
    orderBy: { createdAt: 'asc' },
  });
}

/** What a grant kept for someone who leaves the workspace becomes: owning a room stays with the workspace's owners and admins. */
const GUEST_ROLE_CAP: RoomRole = 'editor';

/**
 * Leaving a workspace (or being removed from it) ends the person's grants in
 * its rooms and live spaces, even those they created: the workspace's owners
 * and admins remain their owners. Rooms in `keepAsGuest` stay open to them as
 * a guest, with their role there but at most editor. Every id must be one of
 * their rooms in this workspace. The unused invite links they made there go
 * too: a link is a bearer credential they could accept themselves. Runs
 * inside the removal's transaction; the caller asks the realtime nodes to
 * re-check open sockets after it commits.
 */
export async function endWorkspaceRoomGrants(tx: GrantClient, workspaceId: string, userId: string, keepAsGuest: string[]) {
  const grants = await tx.roomMember.findMany({ where: grantsInWorkspace(workspaceId, userId), select: { roomId: true, role: true } });
  const held = new Set(grants.map((g) => g.roomId));
  const unknown = keepAsGuest.find((id) => !held.has(id));
  if (unknown !== undefined) throw new ApiError('bad_request', `body.keepAsGuest: "${unknown.slice(0, 100)}" is not one of this person's rooms or live spaces in this workspace.`);
  const kept = new Set(keepAsGuest);
  await tx.roomMember.deleteMany({ where: { ...grantsInWorkspace(workspaceId, userId), roomId: { notIn: [...kept] } } });
  const demote = grants.filter((g) => kept.has(g.roomId) && g.role === 'owner').map((g) => g.roomId);
  if (demote.length) await tx.roomMember.updateMany({ where: { userId, roomId: { in: demote } }, data: { role: GUEST_ROLE_CAP } });
  await tx.roomInvite.deleteMany({ where: { createdById: userId, usedAt: null, room: { workspaceId } } });
  return { ended: grants.length - kept.size, kept: [...kept] };
}
