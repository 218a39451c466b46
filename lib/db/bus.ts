// Room events between the API and every realtime node, over PostgreSQL's
// LISTEN/NOTIFY: no extra service is needed, and every node of a deployment
// (with or without Redis) hears every event, its own included.
//   chat          a message was posted: nodes load it and deliver it to their sockets
//   chat.deleted  a message was deleted
//   access        roles, members, link access, the room itself or a token changed:
//                 nodes re-check the room's sockets now (they also poll) and tell
//                 them its people changed
//   changed       the room's invitations (people) or sources changed: nodes tell
//                 the room's sockets, whose open panels read the list again
import pg from 'pg';
import { config } from '../config.ts';
import { db } from './client.ts';
import { log } from '../log.ts';

export const CHANNEL = 'atrium_rooms';

export type RoomEvent =
  | { kind: 'chat'; roomId: string; messageId: string }
  | { kind: 'chat.deleted'; roomId: string; messageId: string }
  | { kind: 'access'; roomId: string | null }
  | { kind: 'changed'; roomId: string; what: 'people' | 'sources' };

export async function publishRoomEvent(event: RoomEvent): Promise<void> {
  try {
    await db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(event)})`;
  } catch (error) {
    // A lost notification costs promptness only: sockets are re-checked on a timer.
    log.warn('room event not published', { error: error instanceof Error ? error.message : String(error) });
  }
}

/** Listens on a connection of its own, reconnecting after a drop. Returns a stop function. */
export function subscribeRoomEvents(onEvent: (event: RoomEvent) => void, databaseUrl = config.databaseUrl): { ready: Promise<void>; stop: () => Promise<void> } {
  let client: pg.Client | null = null;
  let stopped = false;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        onEvent(JSON.parse(message.payload) as RoomEvent);
      } catch (error) {
        log.warn('bad room event', { error: String(error) });
      }
    });
    next.on('error', () => undefined);
    next.on('end', () => {
      if (!stopped) setTimeout(connect, 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
      resolveReady();
      // After a reconnect, events may have been missed: re-check everything.
      onEvent({ kind: 'access', roomId: null });
    } catch (error) {
      log.warn('room events: cannot listen, retrying', { error: error instanceof Error ? error.message : String(error) });
      await next.end().catch(() => undefined);
    }
  };
  void connect();
  return {
    ready,
    stop: async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    },
  };
}
