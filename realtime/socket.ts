// One room socket as the realtime server sees it: its context, its close
// codes, and the one way to send it a message (typed by lib/schemas/socket.ts).
import type { Connection } from '@hocuspocus/server';
import type { RoomKind } from '../lib/db/generated/client.ts';
import type { Place } from './admission.ts';
import type { AdmittedSocket } from '../lib/rooms/sockets.ts';
import type { ServerMessage } from '../lib/schemas/socket.ts';

/** Closes a socket to say "reconnect now" (a node is stopping, or could not log an update): Hocuspocus's ResetConnection code. */
export const RECONNECT_CLOSE_CODE = 4205;
/** Ends a socket that lost access, after `access.revoked`. */
export const CLOSE_FORBIDDEN = 4403;
/** Ends a socket that authenticates twice or for another document. */
export const CLOSE_PROTOCOL = 4400;

/** The WebSocket itself, shared by every document a client asks for on it (Hocuspocus copies the context per document). */
export type SocketState = {
  /** Set at the first Auth: a socket opens its room once. */
  authenticated: boolean;
  close: (code: number, reason: string) => void;
  /** Its place in the room on this node (admission.ts). */
  place: Place;
};

/** What a socket carries: who holds it (from its ticket) and its role, which follows the re-checks. */
export type SocketContext = Omit<AdmittedSocket, 'hidden'> & {
  roomId: string;
  kind: RoomKind;
  hidden: Set<string>;
  socket: SocketState;
};

export const send = (connection: Connection, message: ServerMessage) => connection.sendStateless(JSON.stringify(message));
