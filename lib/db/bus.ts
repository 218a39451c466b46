// Room events between the API and every realtime node, over PostgreSQL's
// LISTEN/NOTIFY: no extra service is needed, and every node of a deployment
// (with or without Redis) hears every event, its own included.
//   chat          a message was posted: nodes load it and deliver it to their sockets
//   chat.deleted  a message was deleted
//   access        roles, members, link access, the room itself or a token changed:
//                 nodes re-check the room's sockets now (they also poll) and tell
//                 them its people changed
//   restored      a page was restored (lib/rooms/history.ts): nodes apply the
//                 room's log to its open document, which reaches every socket
//   changed       the room's invitations (people) or sources changed: nodes tell
//                 the room's sockets, whose open panels read the list again
import { config } from '../config.ts';
import { log } from '../log.ts';
import { db } from './client.ts';
import { listen } from './listen.ts';

export const CHANNEL = 'atrium_rooms';

export type RoomEvent =
  | { kind: 'chat'; roomId: string; messageId: string }
  | { kind: 'chat.deleted'; roomId: string; messageId: string }
  | { kind: 'access'; roomId: string | null }
  | { kind: 'changed'; roomId: string; what: 'people' | 'sources' }
  | { kind: 'restored'; roomId: string };

export async function publishRoomEvent(event: RoomEvent): Promise<void> {
  try {
    await db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(event)})`;
  } catch (error) {
    // A lost notification costs promptness only: sockets are re-checked on a timer.
    log.warn('room event not published', { error: error instanceof Error ? error.message : String(error) });
  }
}

/** Listens on a session of its own (lib/db/listen.ts). Returns a stop function. */
export function subscribeRoomEvents(onEvent: (event: RoomEvent) => void, databaseUrl = config.databaseUrl): { ready: Promise<void>; stop: () => Promise<void> } {
  return listen(CHANNEL, {
    name: 'room events',
    databaseUrl,
    onNotice(payload) {
      try {
        onEvent(JSON.parse(payload) as RoomEvent);
      } catch (error) {
        log.warn('bad room event', { error: String(error) });
      }
    },
    // After a reconnect, events may have been missed: re-check everything.
    onListening: () => onEvent({ kind: 'access', roomId: null }),
  });
}
