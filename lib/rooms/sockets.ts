// What the realtime server (realtime/) asks of the database, so that it holds
// wiring only: who a ticket admits and a room's AI switch (its document: document-store.ts).
// Every access decision comes from lib/access/rooms.ts, from current state.
import { socketRoles } from '../access/rooms.ts';
import { db, query } from '../db/client.ts';
import type { RoomKind, RoomRole } from '../db/generated/client.ts';
import { redeemTicket } from './tickets.ts';

export type AdmittedSocket = {
  user: { id: string; handle: string; name: string | null };
  /** The token the ticket was issued to: revoking it ends the socket. */
  tokenId: string;
  role: RoomRole;
  /** Authors whose messages this socket never receives: the user's blocks. */
  hidden: string[];
};

const HOLDER = `
  SELECT u.id, u.handle, u.name, ARRAY(SELECT b."blockedId" FROM "UserBlock" b WHERE b."blockerId" = u.id) AS hidden
  FROM "User" u WHERE u.id = $1`;

/**
 * Who a socket's ticket admits into the room, with their role now; else why
 * not: the ticket is not genuine, expired, used or for another room
 * (`bad-ticket`), or the person cannot view the room any more (`no-access`).
 */
export async function admitSocket(ticket: string, kind: RoomKind, roomId: string): Promise<AdmittedSocket | 'bad-ticket' | 'no-access'> {
  const payload = await redeemTicket(ticket, kind, roomId);
  if (!payload) return 'bad-ticket';
  const [users, [role]] = await Promise.all([
    query<{ id: string; handle: string; name: string | null; hidden: string[] }>(HOLDER, [payload.u]),
    socketRoles([{ roomId, kind, userId: payload.u, tokenId: payload.t }]),
  ]);
  const user = users[0];
  if (!user || !role) return 'no-access';
  return { user: { id: user.id, handle: user.handle, name: user.name }, tokenId: payload.t, role, hidden: user.hidden };
}

/** Whether the room's owner turned AI suggestions on. */
export async function aiSuggestOn(roomId: string): Promise<boolean> {
  const room = await db.room.findUnique({ where: { id: roomId }, select: { aiSuggest: true } });
  return room?.aiSuggest ?? false;
}
