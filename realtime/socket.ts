// One room socket as the realtime server sees it: its context, its close
// codes, and the one way to send it a message (typed by lib/schemas/socket.ts).
import type { Connection, onStatelessPayload } from '@hocuspocus/server';
import type { RoomKind } from '../lib/db/generated/client.ts';
import type { Place } from './admission.ts';
import type { AdmittedSocket } from '../lib/rooms/sockets.ts';
import type { ServerMessage } from '../lib/schemas/socket.ts';

/** Closes a socket to say "reconnect now" (a node is stopping, or could not log an update): Hocuspocus's ResetConnection code. */
export const RECONNECT_CLOSE_CODE = 4205;
/** Ends a socket that lost access, after `access.revoked`. */
export const CLOSE_FORBIDDEN = 4403;
/** Ends a socket that authenticates for another document, or again after closing its document. */
export const CLOSE_PROTOCOL = 4400;

/** The WebSocket itself, shared by every document a client asks for on it (Hocuspocus copies the context per document). */
export type SocketState = {
  /** Set at the first Auth: a socket opens its room once. */
  authenticated: boolean;
  close: (code: number, reason: string) => void;
  /** Its place in the room on this node (admission.ts). */
  place: Place;
  /** The appends of its updates so far, in order, once it sent one: its acknowledgements wait for them (persistence.ts). */
  logged: Promise<unknown> | null;
};

/** What a socket carries: who holds it (from its ticket) and its role, which follows the re-checks. */
export type SocketContext = Omit<AdmittedSocket, 'hidden'> & {
  roomId: string;
  kind: RoomKind;
  hidden: Set<string>;
  socket: SocketState;
};

/** A Hocuspocus connection of one of our sockets (Hocuspocus types a document's connections loosely). */
export type SocketConnection = Connection<SocketContext>;

/** A stateless message's hook payload (Hocuspocus does not type its context). */
export type StatelessPayload = Omit<onStatelessPayload, 'connection'> & { connection: SocketConnection };

export const send = (connection: SocketConnection, message: ServerMessage) => connection.sendStateless(JSON.stringify(message));
