'use client';
// The room's socket: a Hocuspocus provider over a ticket from the API. A
// ticket opens one socket once, so every reconnect needs a fresh one: when the
// socket closes, a new ticket is fetched and becomes the URL of the provider's
// next attempt (its retries wait at least a second, which covers the fetch;
// an attempt that still used the old ticket is refused and retried).
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import type { z } from 'zod';
import type { roomCaps } from '@/lib/schemas/rooms.ts';
import { serverMessage, type ClientMessage, type ServerMessage } from '@/lib/schemas/socket.ts';
import { web } from '@/lib/web/api-client.ts';
import { KIND, type RoomKindName } from './kinds.ts';

// The messages are defined once, in lib/schemas/socket.ts.
export type { ServerMessage as ServerEvent, SocketChatMessage as ChatMessage } from '@/lib/schemas/socket.ts';
export type Caps = z.infer<typeof roomCaps>;

/** Sends a stateless message of the socket contract. */
export function sendMessage(provider: HocuspocusProvider, message: ClientMessage) {
  provider.sendStateless(JSON.stringify(message));
}

/** A stateless message from the server, or null when it is not one of the contract's. */
export function readMessage(payload: string): ServerMessage | null {
  try {
    const parsed = serverMessage.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type Status = 'connecting' | 'connected' | 'disconnected' | 'revoked';

export type Connection = { doc: Y.Doc; provider: HocuspocusProvider; close: () => void };

async function ticketUrl(kind: RoomKindName, id: string): Promise<string> {
  const { url } = await web.call(KIND[kind].api.ticket, { params: { id } });
  return url;
}

export async function connect(
  kind: RoomKindName,
  id: string,
  handlers: { onEvent: (event: ServerMessage) => void; onStatus: (status: Status) => void; onSynced: () => void },
): Promise<Connection> {
  const doc = new Y.Doc();
  let revoked = false;
  let closed = false;
  const provider = new HocuspocusProvider({
    url: await ticketUrl(kind, id),
    name: id,
    document: doc,
    // The ticket in the URL says who this is; Hocuspocus still wants a token.
    token: 'ticket',
    onStatus: ({ status }) => {
      if (!revoked) handlers.onStatus(status as Status);
    },
    onSynced: () => handlers.onSynced(),
    onStateless: ({ payload }) => {
      const event = readMessage(payload);
      if (!event) return;
      if (event.kind === 'access.revoked') {
        revoked = true;
        handlers.onStatus('revoked');
        provider.configuration.websocketProvider.disconnect();
      }
      handlers.onEvent(event);
    },
    onClose: () => {
      if (revoked || closed) return;
      ticketUrl(kind, id).then(
        (url) => {
          provider.configuration.websocketProvider.configuration.url = url;
        },
        (error: { status?: number }) => {
          // 404: the room is gone or no longer ours; stop trying.
          if (error.status === 404) {
            revoked = true;
            handlers.onStatus('revoked');
            provider.configuration.websocketProvider.disconnect();
          }
        },
      );
    },
  });
  return {
    doc,
    provider,
    close() {
      closed = true;
      provider.destroy();
      doc.destroy();
    },
  };
}

/** A short random page id (crypto.randomUUID needs a secure context; plain-HTTP installs have none). */
export function newPageId(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
