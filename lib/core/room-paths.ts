// Where rooms and live spaces live, in the API and in the web app: a leaf
// module, so that what links to a room (notifications, mail) need not load the
// rooms' implementation.
import type { RoomKind } from '../db/generated/client.ts';

export const PREFIX: Record<RoomKind, string> = { room: 'rooms', live: 'live-spaces' };

/** A room's page in the web app. */
export function roomPath(kind: RoomKind, id: string) {
  return `/${PREFIX[kind]}/${id}`;
}
