// @mentions in a room's document: the editor inserts a mention node
// (lib/rooms/editor-schema.ts) and then asks the API to tell the person. The
// person must be one of the room's people; they are e-mailed when SMTP is set,
// at most once per page per MENTION_QUIET_SECONDS however often they are
// mentioned there, so that typing and retyping a mention sends one message.
import type { SignedInCaller } from '../access/caller.ts';
import { KIND_NOUN, roomAccess } from '../access/rooms.ts';
import type { Actor } from '../auth/tokens.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { RoomKind } from '../db/generated/client.ts';
import { ApiError } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { log } from '../log.ts';
import { sendMail } from '../mail/mailer.ts';
import { roomPeople } from './people.ts';
import { roomPath } from './rooms.ts';

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
  await roomAccess(actor.user.id, kind, id, 'edit');
  const person = (await roomPeople(id)).find((m) => m.user.handle === input.handle)?.user;
  if (!person) throw new ApiError('not_found', `Nobody with the handle @${input.handle} is in this ${KIND_NOUN[kind]}.`);
  if (person.id === actor.user.id) return { mailed: false };
  await byAuthor.consume(actor.user.id);
  return { mailed: await notifyRoomMention({ id, kind }, actor, person, input.pageId) };
}

/**
 * Tells `person` that `author` mentioned them on a page of the room: by e-mail
 * when SMTP is set and they have an address, unless they were told about this
 * page in the last few minutes. True when a message went out.
 */
export async function notifyRoomMention(room: { id: string; kind: RoomKind }, author: Actor, person: Person, pageId: string): Promise<boolean> {
  const { consumed } = await told.penalize(`${room.id}:${pageId}:${person.id}`);
  if (consumed > 1 || !config.smtpUrl) return false;
  const [user, { name }] = await Promise.all([
    db.user.findUnique({ where: { id: person.id }, select: { email: true } }),
    db.room.findUniqueOrThrow({ where: { id: room.id }, select: { name: true } }),
  ]);
  if (!user?.email) return false;
  const who = author.user.name ? `${author.user.name} (@${author.user.handle})` : `@${author.user.handle}`;
  const link = `${config.publicUrl}${roomPath(room.kind, room.id)}?page=${encodeURIComponent(pageId)}`;
  try {
    return await sendMail({ to: user.email, subject: `${who} mentioned you in ${name}`, text: `${who} mentioned you on a page of ${name}.\n\nOpen it: ${link}\n` });
  } catch (error) {
    // Best effort, as comment mentions: the mention stands in the document either way.
    log.warn('room mention mail failed', { room: room.id, error: String(error) });
    return false;
  }
}
