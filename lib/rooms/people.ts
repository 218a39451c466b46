// People of a room: members added by handle, single-use invite links made for
// an e-mail address (stored hashed, e-mailed when SMTP is set, and shown once
// to their creator), role changes, removal and leaving. Every change tells the
// realtime nodes to re-check the room's sockets at once.
import type { SignedInCaller } from '../core/caller.ts';
import { KIND_NOUN, roomAccess, roomNotFound, roomRoleCan, WORKSPACE_TO_ROOM, higherRole } from '../access/rooms.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { RoomKind, RoomRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { log } from '../log.ts';
import { sendMail } from '../mail/mailer.ts';
import { HANDLE_PATTERN } from '../schemas/common.ts';
import type { RoomInvite, RoomMember } from '../schemas/rooms.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { publishRoomEvent } from '../db/bus.ts';

const DAY = 24 * 60 * 60 * 1000;
export const ROOM_INVITE_DAYS = 7;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const userSelect = { id: true, handle: true, name: true } as const;

function inviteOut(row: { id: string; email: string; role: RoomRole; createdAt: Date; expiresAt: Date; createdBy: RoomInvite['createdBy'] }): RoomInvite {
  return { id: row.id, email: row.email, role: row.role, createdBy: row.createdBy, createdAt: row.createdAt.getTime(), expiresAt: row.expiresAt.getTime() };
}

export function roomInviteUrl(kind: RoomKind, token: string) {
  return `${config.publicUrl}/${kind === 'room' ? 'room-invites' : 'live-space-invites'}/${token}`;
}

export async function listPeople({ actor }: SignedInCaller, kind: RoomKind, id: string) {
  const { role } = await roomAccess(actor.user.id, kind, id, 'view');
  const invites =
    roomRoleCan(role, 'manage')
      ? await db.roomInvite.findMany({
          where: { roomId: id, usedAt: null, expiresAt: { gt: new Date() } },
          select: { id: true, email: true, role: true, createdAt: true, expiresAt: true, createdBy: { select: userSelect } },
          orderBy: { createdAt: 'asc' },
        })
      : [];
  return { members: await roomPeople(id), invites: invites.map(inviteOut) };
}

/** The room's people: its workspace's members and the people added to it, each with their effective role. */
async function roomPeople(id: string): Promise<RoomMember[]> {
  const room = await db.room.findUniqueOrThrow({
    where: { id },
    select: {
      members: { select: { role: true, user: { select: userSelect } }, orderBy: { createdAt: 'asc' } },
      workspace: { select: { memberships: { where: { status: 'accepted' }, select: { role: true, user: { select: userSelect } }, orderBy: { createdAt: 'asc' } } } },
    },
  });
  const byUser = new Map<string, RoomMember>();
  for (const m of room.workspace.memberships) byUser.set(m.user.id, { user: m.user, role: WORKSPACE_TO_ROOM[m.role], via: 'workspace' });
  for (const m of room.members) {
    const floor = byUser.get(m.user.id)?.role ?? null;
    byUser.set(m.user.id, { user: m.user, role: higherRole(floor, m.role)!, via: 'room' });
  }
  return [...byUser.values()];
}

/** One of the room's people by handle (a workspace member or someone added to it), or null: one query, whatever the room's size. */
export function roomPerson(id: string, handle: string): Promise<{ id: string; handle: string } | null> {
  return db.user.findFirst({
    where: { handle, OR: [{ roomMemberships: { some: { roomId: id } } }, { memberships: { some: { status: 'accepted', workspace: { rooms: { some: { id } } } } } }] },
    select: { id: true, handle: true },
  });
}

export async function addPeople(caller: SignedInCaller, kind: RoomKind, id: string, input: { to: string; role: Exclude<RoomRole, 'owner'> }) {
  const { actor } = caller;
  await roomAccess(actor.user.id, kind, id, 'manage');
  const to = input.to.trim().replace(/^@/, '');
  if (EMAIL.test(to)) {
    const invite = await createInvite(caller, kind, id, to.toLowerCase(), input.role);
    await publishRoomEvent({ kind: 'changed', roomId: id, what: 'people' });
    return { member: null, invite };
  }
  if (!HANDLE_PATTERN.test(to)) throw new ApiError('bad_request', 'body.to: must be a handle or an e-mail address.');
  const user = await db.user.findUnique({ where: { handle: to }, select: userSelect });
  if (!user) throw new ApiError('not_found', `No user @${to}.`);
  const existing = await db.roomMember.findUnique({ where: { roomId_userId: { roomId: id, userId: user.id } }, select: { role: true } });
  // Adding someone never lowers a role they already hold in the room.
  const role = higherRole(existing?.role ?? null, input.role)!;
  await db.roomMember.upsert({
    where: { roomId_userId: { roomId: id, userId: user.id } },
    create: { roomId: id, userId: user.id, role, addedById: actor.user.id },
    update: { role },
  });
  await publishRoomEvent({ kind: 'access', roomId: id });
  return { member: { user, role, via: 'room' as const }, invite: null };
}

async function createInvite({ actor }: SignedInCaller, kind: RoomKind, id: string, email: string, role: RoomRole): Promise<RoomInvite> {
  const token = newSecret('roomInvite');
  const now = Date.now();
  const row = await db.roomInvite.create({
    data: { id: newId('roomInvite'), roomId: id, email, role, hash: hashSecret(token), createdById: actor.user.id, createdAt: new Date(now), expiresAt: new Date(now + ROOM_INVITE_DAYS * DAY) },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true, createdBy: { select: userSelect }, room: { select: { name: true } } },
  });
  const url = roomInviteUrl(kind, token);
  const inviter = actor.user.name ? `${actor.user.name} (@${actor.user.handle})` : `@${actor.user.handle}`;
  let emailed = false;
  try {
    emailed = await sendMail({
      to: email,
      subject: `${inviter} invited you to "${row.room.name}" on Atrium`,
      text:
        `${inviter} invited you to the ${KIND_NOUN[kind]} "${row.room.name}" on Atrium as ${role}.\n\n` +
        `Open this link to join (it works once, until ${row.expiresAt.toUTCString()}):\n\n${url}\n\nIf you did not expect it, ignore this e-mail.\n`,
    });
  } catch (error) {
    log.warn('room invite not e-mailed', { error: error instanceof Error ? error.message : String(error) });
  }
  return { ...inviteOut(row), url, emailed };
}

export async function changeRole({ actor }: SignedInCaller, kind: RoomKind, id: string, handle: string, role: RoomRole) {
  await roomAccess(actor.user.id, kind, id, 'manage');
  const target = await db.user.findUnique({ where: { handle }, select: { id: true } });
  if (!target) throw new ApiError('not_found', `No user @${handle}.`);
  const member = await db.workspace.findFirst({ where: { rooms: { some: { id } }, memberships: { some: { userId: target.id, status: 'accepted' } } }, select: { id: true } });
  const inRoom = await db.roomMember.findUnique({ where: { roomId_userId: { roomId: id, userId: target.id } }, select: { role: true } });
  if (!inRoom && !member) throw new ApiError('not_found', `@${handle} is not in this ${KIND_NOUN[kind]}.`);
  await db.roomMember.upsert({
    where: { roomId_userId: { roomId: id, userId: target.id } },
    create: { roomId: id, userId: target.id, role, addedById: actor.user.id },
    update: { role },
  });
  await publishRoomEvent({ kind: 'access', roomId: id });
}

export async function removePerson({ actor }: SignedInCaller, kind: RoomKind, id: string, handle: string) {
  const self = handle === actor.user.handle;
  await roomAccess(actor.user.id, kind, id, self ? 'view' : 'manage');
  const target = await db.user.findUnique({ where: { handle }, select: { id: true } });
  const removed = target ? await db.roomMember.deleteMany({ where: { roomId: id, userId: target.id } }) : { count: 0 };
  if (removed.count === 0) {
    throw new ApiError('not_found', self ? `You were not added to this ${KIND_NOUN[kind]}; your access comes from its workspace or its link.` : `@${handle} was not added to this ${KIND_NOUN[kind]}.`);
  }
  await publishRoomEvent({ kind: 'access', roomId: id });
}

export async function revokeInvite({ actor }: SignedInCaller, kind: RoomKind, id: string, inviteId: string) {
  await roomAccess(actor.user.id, kind, id, 'manage');
  const deleted = await db.roomInvite.deleteMany({ where: { id: inviteId, roomId: id, usedAt: null } });
  if (deleted.count === 0) throw new ApiError('not_found', `No pending invite "${inviteId.slice(0, 100)}".`);
  await publishRoomEvent({ kind: 'changed', roomId: id, what: 'people' });
}

/** Joins the room of an invite link: single use; the role never lowers one already held. */
export async function acceptRoomInvite({ actor }: SignedInCaller, kind: RoomKind, token: string): Promise<string> {
  const roomId = await db.$transaction(async (tx) => {
    const invite = await tx.roomInvite.findUnique({ where: { hash: hashSecret(token) }, select: { id: true, roomId: true, role: true, usedAt: true, expiresAt: true, room: { select: { kind: true } } } });
    if (!invite || invite.room.kind !== kind) throw new ApiError('not_found', 'No such invite link.');
    if (invite.usedAt) throw new ApiError('gone', 'This invite link has already been used.');
    if (invite.expiresAt.getTime() <= Date.now()) throw new ApiError('gone', 'This invite link has expired.');
    // Marked used only if still unused: of two racing accepts, one wins.
    const claimed = await tx.roomInvite.updateMany({ where: { id: invite.id, usedAt: null }, data: { usedAt: new Date(), usedById: actor.user.id } });
    if (claimed.count !== 1) throw new ApiError('gone', 'This invite link has already been used.');
    const existing = await tx.roomMember.findUnique({ where: { roomId_userId: { roomId: invite.roomId, userId: actor.user.id } }, select: { role: true } });
    const role = higherRole(existing?.role ?? null, invite.role)!;
    await tx.roomMember.upsert({
      where: { roomId_userId: { roomId: invite.roomId, userId: actor.user.id } },
      create: { roomId: invite.roomId, userId: actor.user.id, role },
      update: { role },
    });
    return invite.roomId;
  });
  await publishRoomEvent({ kind: 'access', roomId });
  return roomId;
}

export { roomNotFound };
