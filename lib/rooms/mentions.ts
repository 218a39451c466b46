// @mentions in a room's document: the editor inserts a mention node
// (lib/rooms/editor-schema.ts) and then asks the API to tell the person. The
// person must be one of the room's people; they are notified (in the inbox, and
// by mail as their preferences say) at most once per page per
// MENTION_QUIET_SECONDS however often they are mentioned there, so that typing
// and retyping a mention tells them once.
import type { SignedInCaller } from '../core/caller.ts';
import { KIND_NOUN, roomAccess } from '../access/rooms.ts';
import type { Actor } from '../core/caller.ts';
import { db } from '../db/client.ts';
import type { RoomKind } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { deliverNotifications, eventNotifications, queueNotifications } from '../notifications/notifications.ts';
import { roomPerson } from './people.ts';

export const MENTION_QUIET_SECONDS = 300;
export const MENTIONS_PER_AUTHOR = 30;

// Remembers that a person was told about a page: one point per window.
const told = rateLimit({ name: 'room-mention', points: 1, duration: MENTION_QUIET_SECONDS, message: '' });
// Page ids are the caller's word, so each author also has a cap of their own.
const byAuthor = rateLimit({
  name: 'room-mention-author',
  points: MENTIONS_PER_AUTHOR,
  duration: 600,
  message: `At most ${MENTIONS_PER_AUTHOR} mentions every 10 minutes; wait a few minutes.`,
});

type Person = { id: string; handle: string };

/** POST …/mentions: the caller, who edits the room, mentioned `handle` on the page `pageId`. */
export async function mentionInRoom({ actor }: SignedInCaller, kind: RoomKind, id: string, input: { handle: string; pageId: string }) {
  const { room } = await roomAccess(actor.user.id, kind, id, 'edit');
  const person = await roomPerson(id, input.handle);
  if (!person) throw new ApiError('not_found', `Nobody with the handle @${input.handle} is in this ${KIND_NOUN[kind]}.`);
  if (person.id === actor.user.id) return { notified: false, mailed: false };
  await byAuthor.consume(actor.user.id);
  return notifyRoomMention(room, actor, person, input.pageId);
}

/**
 * Tells `person` that `author` mentioned them on a page of the room: a
 * notification in their inbox, mailed as their preferences say when SMTP is
 * set, unless they were told about this page in the last few minutes.
 */
async function notifyRoomMention(room: { id: string; workspaceId: string }, author: Actor, person: Person, pageId: string): Promise<{ notified: boolean; mailed: boolean }> {
  const { consumed } = await told.penalize(`${room.id}:${pageId}:${person.id}`);
  if (consumed > 1) return { notified: false, mailed: false };
  const rows = eventNotifications(author.user.id, [{ userId: person.id, kind: 'mention', workspaceId: room.workspaceId, roomId: room.id, pageId }]);
  await queueNotifications(db, rows);
  return { notified: rows.length > 0, mailed: (await deliverNotifications(rows)) > 0 };
}
