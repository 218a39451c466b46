// WebSocket tickets. A ticket is `<payload>.<hmac>`: the room, the person,
// the token they asked with (so revoking it ends the socket), an expiry and a
// one-time id. The realtime server checks the signature and the expiry and
// records the id, so a ticket opens one socket only, once. Apart from
// rooms.ts so that the realtime server loads it without the document code.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SignedInCaller } from '../core/caller.ts';
import { roomAccess } from '../access/rooms.ts';
import { serverSecret } from '../auth/server-secret.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { RoomKind } from '../db/generated/client.ts';
import { PREFIX } from '../core/room-paths.ts';
import { TICKET_SECONDS } from '../schemas/rooms.ts';

export type TicketPayload = { r: string; k: RoomKind; u: string; t: string; e: number; j: string };

async function ticketKey() {
  return serverSecret('room-tickets');
}

const sign = (key: string, data: string) => createHmac('sha256', key).update(data).digest('base64url');

export function socketUrl(kind: RoomKind, id: string, ticket: string) {
  const base = (config.realtimeUrl ?? config.publicUrl).replace(/^http/, 'ws');
  return `${base}/v1/${PREFIX[kind]}/${id}/ws?ticket=${ticket}`;
}

export async function issueTicket({ actor }: SignedInCaller, kind: RoomKind, id: string) {
  await roomAccess(actor.user.id, kind, id, 'view');
  const expiresAt = Date.now() + TICKET_SECONDS * 1000;
  const payload: TicketPayload = { r: id, k: kind, u: actor.user.id, t: actor.token.id, e: expiresAt, j: randomBytes(12).toString('base64url') };
  const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const ticket = `${data}.${sign(await ticketKey(), data)}`;
  return { url: socketUrl(kind, id, ticket), expiresAt };
}


/** The ticket's payload when it is genuine, unexpired, for this room and never used before; else null. */
export async function redeemTicket(ticket: string, kind: RoomKind, roomId: string): Promise<TicketPayload | null> {
  const [data, mac] = ticket.split('.');
  if (!data || !mac || ticket.length > 1000) return null;
  const expected = Buffer.from(sign(await ticketKey(), data));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: TicketPayload;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as TicketPayload;
  } catch {
    return null;
  }
  if (payload.r !== roomId || payload.k !== kind || payload.e <= Date.now()) return null;
  const used = await db.roomTicketUse.createMany({ data: [{ jti: payload.j, expiresAt: new Date(payload.e) }], skipDuplicates: true });
  if (used.count !== 1) return null;
  if (Math.random() < 0.01) await db.roomTicketUse.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  return payload;
}
