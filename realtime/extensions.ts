// The realtime server's concerns, one small Hocuspocus extension each, as
// Outline's collaboration server does: authentication (the ticket was checked
// at the upgrade; here the socket is bound to its room and made read-only for
// viewers and commenters), persistence in PostgreSQL, chat, presence and the
// access re-check. Socket message kinds are documented in docs/realtime.md.
import type { Connection, Extension, onAuthenticatePayload, onLoadDocumentPayload, onStatelessPayload, onStoreDocumentPayload, connectedPayload, beforeHandleAwarenessPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { capsOf, roleOf, roomRoleCan } from '../lib/access/rooms.ts';
import { config } from '../lib/config.ts';
import { db } from '../lib/db/client.ts';
import type { RoomKind, RoomRole } from '../lib/db/generated/client.ts';
import { ApiError } from '../lib/http/errors.ts';
import { log } from '../lib/log.ts';
import { postMessage, recentMessages, type ChatMessage } from '../lib/rooms/messages.ts';

/** What a socket carries from its ticket; `role` follows the re-check. */
export type SocketContext = {
  roomId: string;
  kind: RoomKind;
  user: { id: string; handle: string; name: string | null };
  tokenId: string;
  role: RoomRole;
  /** Authors whose messages this socket never receives: the user's blocks, read at connect. */
  hidden: Set<string>;
};

export const send = (connection: Connection, message: object) => connection.sendStateless(JSON.stringify(message));

const canEdit = (role: RoomRole) => roomRoleCan(role, 'edit');

export const ticketAuth: Extension = {
  extensionName: 'ticket-auth',
  async onAuthenticate({ context, documentName, connectionConfig }: onAuthenticatePayload<SocketContext>) {
    // The ticket named one room; the socket may open no other document.
    if (!context?.roomId || documentName !== context.roomId) throw new Error('This socket was opened for another room.');
    connectionConfig.readOnly = !canEdit(context.role);
  },
};

/** The Yjs document in Room.roomDoc, stored a moment after edits stop (Hocuspocus debounces). */
export const persistence: Extension = {
  extensionName: 'persistence',
  async onLoadDocument({ document, documentName }: onLoadDocumentPayload) {
    const row = await db.room.findUnique({ where: { id: documentName }, select: { roomDoc: true } });
    if (row?.roomDoc) Y.applyUpdate(document, new Uint8Array(row.roomDoc));
    return document;
  },
  async onStoreDocument({ document, documentName, lastContext }: onStoreDocumentPayload<SocketContext>) {
    const state = Buffer.from(Y.encodeStateAsUpdate(document));
    const who = lastContext?.user ? `edited by @${lastContext.user.handle}` : undefined;
    await db.room.updateMany({
      where: { id: documentName },
      data: { roomDoc: state, latestVersion: { increment: 1 }, ...(who ? { lastActivity: who, lastActivityAt: new Date() } : {}) },
    });
  },
};

export type ChatPayload = { kind: 'chat.send'; body: string };

/** Stateless kinds some extension handles; any other is answered with `error`. */
export const statelessKinds = new Set<string>(['chat.send']);

export const chat: Extension = {
  extensionName: 'chat',
  async connected({ connection, context }: connectedPayload<SocketContext>) {
    // Rooms say whether this server has an AI service (the room's own
    // aiSuggest is in its record); live spaces never mention AI.
    const ai = context.kind === 'room' ? { ai: config.ai !== null } : {};
    send(connection, { kind: 'hello', role: context.role, caps: capsOf(context.role), user: context.user, ...ai });
    const messages = await recentMessages(context.roomId, [...context.hidden]);
    send(connection, { kind: 'chat.history', messages });
  },
  async onStateless({ connection, payload }: onStatelessPayload) {
    const context = connection.context as SocketContext;
    let message: { kind?: unknown; body?: unknown; id?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      return send(connection, { kind: 'error', message: 'Stateless messages are JSON.' });
    }
    if (typeof message.kind !== 'string' || !statelessKinds.has(message.kind)) return send(connection, { kind: 'error', message: `Unknown message kind ${JSON.stringify(message.kind)}.` });
    if (message.kind !== 'chat.send') return;
    if (!roomRoleCan(context.role, 'comment')) return send(connection, { kind: 'chat.error', id: message.id ?? null, message: 'Viewers cannot chat here.' });
    if (typeof message.body !== 'string') return send(connection, { kind: 'chat.error', id: message.id ?? null, message: 'body must be a string.' });
    try {
      await postMessage(context.roomId, context.user, message.body);
    } catch (error) {
      if (!(error instanceof ApiError)) log.error('chat message not stored', { error: String(error) });
      send(connection, { kind: 'chat.error', id: message.id ?? null, message: error instanceof ApiError ? error.message : 'The message was not stored.' });
    }
  },
};

/** Delivers a stored message to this node's sockets of its room, except to those who blocked its author. */
export function deliverChat(connections: Connection[], message: ChatMessage) {
  for (const connection of connections) {
    const context = connection.context as SocketContext;
    if (message.author && context.hidden.has(message.author.id)) continue;
    send(connection, { kind: 'chat.message', message });
  }
}

/**
 * Presence is Yjs awareness (name, colour, cursor), relayed by Hocuspocus (and
 * across nodes by the Redis extension). The server vouches for who is who:
 * each state's `user.id` and `user.handle` are overwritten with the socket's
 * own, so nobody can show up as someone else.
 */
export const presence: Extension = {
  extensionName: 'presence',
  async beforeHandleAwareness({ states, connection }: beforeHandleAwarenessPayload<SocketContext>) {
    const context = connection?.context as SocketContext | undefined;
    if (!context) return;
    for (const state of states.values()) {
      if (state && typeof state === 'object' && state.user && typeof state.user === 'object') {
        state.user.id = context.user.id;
        state.user.handle = context.user.handle;
      }
    }
  },
};

/**
 * Re-checks every socket of a room against the database: the room still
 * exists, the person still has a role (workspace, room or link), the token the
 * ticket was issued to is not revoked. A socket that lost access is closed
 * (4403); one whose role changed is told and made read-only or writable.
 */
export async function recheckRoom(roomId: string, connections: Connection[]): Promise<void> {
  if (connections.length === 0) return;
  const contexts = connections.map((c) => c.context as SocketContext);
  const userIds = [...new Set(contexts.map((c) => c.user.id))];
  const tokenIds = [...new Set(contexts.map((c) => c.tokenId))];
  const [room, tokens] = await Promise.all([
    db.room.findUnique({
      where: { id: roomId },
      select: {
        linkAccess: true,
        members: { where: { userId: { in: userIds } }, select: { userId: true, role: true } },
        workspace: { select: { memberships: { where: { userId: { in: userIds }, status: 'accepted' }, select: { userId: true, role: true } } } },
      },
    }),
    db.token.findMany({ where: { id: { in: tokenIds }, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] }, select: { id: true } }),
  ]);
  const liveTokens = new Set(tokens.map((t) => t.id));
  for (const connection of connections) {
    const context = connection.context as SocketContext;
    const role =
      room && liveTokens.has(context.tokenId)
        ? roleOf({
            workspaceRole: room.workspace.memberships.find((m) => m.userId === context.user.id)?.role ?? null,
            roomRole: room.members.find((m) => m.userId === context.user.id)?.role ?? null,
            linkAccess: room.linkAccess,
          })
        : null;
    if (!role) {
      send(connection, { kind: 'access.revoked', message: room ? 'You no longer have access to this room.' : 'This room was deleted.' });
      connection.close({ code: 4403, reason: 'Forbidden' });
      continue;
    }
    if (role !== context.role) {
      context.role = role;
      connection.readOnly = !canEdit(role);
      send(connection, { kind: 'access', role, caps: capsOf(role) });
    }
  }
}
