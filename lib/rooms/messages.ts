// Chat messages: posted over the socket (realtime/), deleted and reported over
// the API. A deletion is announced to every realtime node (`chat.deleted`); a
// report keeps its own copy of the message, which outlives the message.
import type { SignedInCaller } from '../core/caller.ts';
import { roomAccess, roomRoleCan } from '../access/rooms.ts';
import { db } from '../db/client.ts';
import type { RoomKind } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { publishRoomEvent } from '../db/bus.ts';
import type { SocketChatMessage } from '../schemas/socket.ts';
import { touchActivity } from './activity.ts';

export const HISTORY_MESSAGES = 50;
export const DELETED_USER = 'Deleted user';

const messageSelect = { id: true, body: true, createdAt: true, author: { select: { id: true, handle: true, name: true } } } as const;

function messageOut(row: { id: string; body: string; createdAt: Date; author: SocketChatMessage['author'] }): SocketChatMessage {
  return { id: row.id, body: row.body, author: row.author, authorName: row.author ? (row.author.name ?? `@${row.author.handle}`) : DELETED_USER, createdAt: row.createdAt.getTime() };
}

/** A message and its room (which the socket's `chat.message` does not carry). */
export async function loadMessage(id: string): Promise<{ roomId: string; message: SocketChatMessage } | null> {
  const row = await db.roomMessage.findUnique({ where: { id }, select: { ...messageSelect, roomId: true } });
  return row && { roomId: row.roomId, message: messageOut(row) };
}

/** The latest messages, oldest first, without those of authors `hidden` (the reader's blocks). */
export async function recentMessages(roomId: string, hidden: string[]): Promise<SocketChatMessage[]> {
  const rows = await db.roomMessage.findMany({
    where: { roomId, ...(hidden.length ? { OR: [{ authorId: null }, { authorId: { notIn: hidden } }] } : {}) },
    select: messageSelect,
    orderBy: { createdAt: 'desc' },
    take: HISTORY_MESSAGES,
  });
  return rows.reverse().map(messageOut);
}

/** Stores a message from the socket (its length checked by its schema) and announces it to every node. */
export async function postMessage(roomId: string, author: { id: string; handle: string }, body: string): Promise<string> {
  const text = body.trim();
  if (!text) throw new ApiError('bad_request', 'A message cannot be empty.');
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) || !text.isWellFormed()) throw new ApiError('bad_request', 'A message must not contain control characters.');
  const id = newId('roomMessage');
  await db.roomMessage.create({ data: { id, roomId, authorId: author.id, body: text } });
  await touchActivity(roomId, `message from @${author.handle}`);
  await publishRoomEvent({ kind: 'chat', roomId, messageId: id });
  return id;
}

async function messageIn(roomId: string, messageId: string) {
  const message = await db.roomMessage.findUnique({ where: { id: messageId }, select: { id: true, roomId: true, authorId: true, body: true, createdAt: true } });
  if (!message || message.roomId !== roomId) throw new ApiError('not_found', `No message "${messageId.slice(0, 100)}" here.`);
  return message;
}

export async function deleteMessage({ actor }: SignedInCaller, kind: RoomKind, roomId: string, messageId: string) {
  const { role } = await roomAccess(actor.user.id, kind, roomId, 'view');
  const message = await messageIn(roomId, messageId);
  if (message.authorId !== actor.user.id && !roomRoleCan(role, 'manage')) {
    throw new ApiError('forbidden', 'Only its author or someone who manages the room may delete a message.');
  }
  const deleted = await db.roomMessage.deleteMany({ where: { id: messageId } });
  if (deleted.count === 0) throw new ApiError('not_found', `No message "${messageId.slice(0, 100)}" here.`);
  await publishRoomEvent({ kind: 'chat.deleted', roomId, messageId });
}

export async function reportMessage({ actor }: SignedInCaller, kind: RoomKind, roomId: string, messageId: string, reason: string | undefined) {
  await roomAccess(actor.user.id, kind, roomId, 'view');
  const message = await messageIn(roomId, messageId);
  await db.roomMessageReport.create({
    data: { id: newId('roomReport'), roomId, messageId, reporterId: actor.user.id, authorId: message.authorId, body: message.body, sentAt: message.createdAt, reason: reason ?? null },
  });
}
