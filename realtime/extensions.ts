// The realtime server's concerns, one small Hocuspocus extension each, as
// Outline's collaboration server does: authentication (every Auth decided from
// the current state, once per socket), stateless messages (chat, AI),
// presence and the access re-check; the document-model check of each update
// runs in the persistence hook (persistence.ts), which logs it. The messages are
// defined in lib/schemas/socket.ts; the database is reached through lib/rooms
// and lib/access only.
import type { Extension } from '@hocuspocus/server';
import type * as Y from 'yjs';
import { capsOf, roomRoleCan, socketRoles } from '../lib/access/rooms.ts';
import { config } from '../lib/config.ts';
import type { RoomRole } from '../lib/db/generated/client.ts';
import { ApiError } from '../lib/core/errors.ts';
import { log } from '../lib/log.ts';
import { postMessage, recentMessages } from '../lib/rooms/messages.ts';
import { updateMisfit } from '../lib/rooms/document-model.ts';
import { parseClientMessage, type ClientMessage, type SocketChatMessage } from '../lib/schemas/socket.ts';
import { CLOSE_FORBIDDEN, CLOSE_PROTOCOL, send, type SocketConnection, type SocketContext, type StatelessPayload } from './socket.ts';

const canEdit = (role: RoomRole) => roomRoleCan(role, 'edit');

/** Tells the socket why, then closes the WebSocket itself: a hostile client gets no second chance on it. */
function cutOff(context: SocketContext, connection: SocketConnection | null, message: string) {
  if (connection) send(connection, { kind: 'access.revoked', message });
  context.socket.close(CLOSE_FORBIDDEN, 'Forbidden');
}

/** An Auth refusal: Hocuspocus sends its `reason` in the permission-denied answer. */
class Refused extends Error {
  reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

export const ticketAuth: Extension<SocketContext> = {
  extensionName: 'ticket-auth',
  async onAuthenticate({ context, documentName, connectionConfig }) {
    // One Auth per socket, for the room its ticket named. A second one (after
    // closing the document, or for another session of it) would otherwise be
    // trusted with the role of the first.
    if (context.socket.authenticated || documentName !== context.roomId) {
      context.socket.close(CLOSE_PROTOCOL, 'One socket opens its room once');
      throw new Refused('A socket opens its room once: connect again with a fresh ticket.');
    }
    context.socket.authenticated = true;
    const [role] = await socketRoles([holderOf(context)]);
    if (!role) {
      cutOff(context, null, 'You no longer have access to this room.');
      throw new Refused('You no longer have access to this room.');
    }
    context.role = role;
    connectionConfig.readOnly = !canEdit(role);
  },
};

/**
 * Every update a socket sends is checked against the document model before it
 * is applied (lib/rooms/document-model.ts): one that does not fit ends the
 * socket (4400) and reaches nobody, so no client can break a room for good.
 * Called by the persistence hook (persistence.ts) before it logs the update,
 * so that each update's frame is read once and one hook runs per message.
 */
export function checkUpdate(document: Y.Doc, update: Uint8Array, context: SocketContext): void {
  const why = updateMisfit(document, update);
  if (!why) return;
  log.info('room update refused', { roomId: context.roomId, userId: context.user.id, why });
  context.socket.close(CLOSE_PROTOCOL, 'Update does not fit the document');
  throw new Refused(`This update does not fit the room's document: ${why}.`);
}

type Handler<K extends ClientMessage['kind']> = (payload: StatelessPayload, message: Extract<ClientMessage, { kind: K }>) => Promise<void>;

const postChat: Handler<'chat.send'> = async ({ connection }, message) => {
  const { context } = connection;
  const id = message.id ?? null;
  if (!roomRoleCan(context.role, 'comment')) return send(connection, { kind: 'chat.error', id, message: 'Viewers cannot chat here.' });
  try {
    await postMessage(context.roomId, context.user, message.body);
  } catch (error) {
    if (!(error instanceof ApiError)) log.error('chat message not stored', { error: String(error) });
    send(connection, { kind: 'chat.error', id, message: error instanceof ApiError ? error.message : 'The message was not stored.' });
  }
};

// The AI code (the document's Markdown, the model's client) is loaded at the first suggestion, not at start.
const suggest: Handler<'ai.suggest'> = async (payload, message) => (await import('./ai.ts')).suggest(payload, message);

const handlers: { [K in ClientMessage['kind']]: Handler<K> } = { 'chat.send': postChat, 'ai.suggest': suggest };
const errorKind = { 'chat.send': 'chat.error', 'ai.suggest': 'ai.error' } as const;

/** Stateless messages: each is parsed with its schema and handed to its one handler; anything else is answered with an error. */
export const messages: Extension<SocketContext> = {
  extensionName: 'messages',
  async connected({ connection, context }) {
    // Rooms say whether this server has an AI service (the room's own
    // aiSuggest is in its record); live spaces never mention AI.
    const ai = context.kind === 'room' ? { ai: config.ai !== null } : {};
    send(connection, { kind: 'hello', role: context.role, caps: capsOf(context.role), user: context.user, ...ai });
    send(connection, { kind: 'chat.history', messages: await recentMessages(context.roomId, [...context.hidden]) });
  },
  async onStateless(payload: StatelessPayload) {
    const { connection } = payload;
    const parsed = parseClientMessage(payload.payload);
    if (!parsed.ok) {
      if (parsed.kind) return send(connection, { kind: errorKind[parsed.kind], id: parsed.id, message: parsed.error });
      return send(connection, { kind: 'error', message: parsed.error });
    }
    const handler = handlers[parsed.message.kind] as Handler<ClientMessage['kind']>;
    await handler(payload, parsed.message);
  },
};

/** Delivers a stored message to this node's sockets of its room, except to those who blocked its author. */
export function deliverChat(connections: SocketConnection[], message: SocketChatMessage) {
  for (const connection of connections) {
    if (message.author && connection.context.hidden.has(message.author.id)) continue;
    send(connection, { kind: 'chat.message', message });
  }
}

/**
 * Presence is Yjs awareness (name, colour, cursor), relayed by Hocuspocus (and
 * across nodes by the Redis extension). The server vouches for who is who:
 * each state's `user.id` and `user.handle` are overwritten with the socket's
 * own, so nobody can show up as someone else.
 */
export const presence: Extension<SocketContext> = {
  extensionName: 'presence',
  async beforeHandleAwareness({ states, connection }) {
    const context = connection?.context;
    if (!context) return;
    for (const state of states.values()) {
      if (state && typeof state === 'object' && state.user && typeof state.user === 'object') {
        state.user.id = context.user.id;
        state.user.handle = context.user.handle;
      }
    }
  },
};

const holderOf = (context: SocketContext) => ({ roomId: context.roomId, kind: context.kind, userId: context.user.id, tokenId: context.tokenId });

/**
 * Re-checks sockets (of one room, or every socket of this node) against the
 * current state (lib/access), in one query: a socket that lost access is told
 * and its WebSocket closed (4403); one whose role changed is told and made
 * read-only or writable.
 */
export async function recheckSockets(connections: SocketConnection[]): Promise<void> {
  if (connections.length === 0) return;
  const contexts = connections.map((c) => c.context);
  const roles = await socketRoles(contexts.map(holderOf));
  connections.forEach((connection, i) => {
    const context = contexts[i];
    const role = roles[i];
    if (!role) return cutOff(context, connection, 'You no longer have access to this room.');
    if (role !== context.role) {
      context.role = role;
      connection.readOnly = !canEdit(role);
      send(connection, { kind: 'access', role, caps: capsOf(role) });
    }
  });
}
