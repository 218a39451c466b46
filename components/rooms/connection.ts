'use client';
// The room's socket: a Hocuspocus provider over a ticket from the API. A
// ticket opens one socket once, so every reconnect needs a fresh one: when the
// socket closes, a new ticket is fetched and becomes the URL of the provider's
// next attempt (its retries wait at least a second, which covers the fetch;
// an attempt that still used the old ticket is refused and retried).
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { web } from '@/lib/web/api-client.ts';
import { KIND, type RoomKindName } from './kinds.ts';

export type Caps = { view: boolean; comment: boolean; edit: boolean; manage: boolean };
export type ChatMessage = { id: string; body: string; author: { id: string; handle: string; name: string | null } | null; authorName: string; createdAt: number };

export type ServerEvent =
  | { kind: 'hello'; role: string; caps: Caps; user: { id: string; handle: string }; ai?: boolean }
  | { kind: 'ai.suggestion'; id: string | null; pageId: string; text: string }
  | { kind: 'ai.error'; id: string | null; message: string }
  | { kind: 'chat.history'; messages: ChatMessage[] }
  | { kind: 'chat.message'; message: ChatMessage }
  | { kind: 'chat.deleted'; messageId: string }
  | { kind: 'chat.error'; id: string | null; message: string }
  | { kind: 'access'; role: string; caps: Caps }
  | { kind: 'access.revoked'; message: string }
  | { kind: 'changed'; what: 'people' | 'sources' }
  | { kind: 'error'; message: string };

export type Status = 'connecting' | 'connected' | 'disconnected' | 'revoked';

export type Connection = { doc: Y.Doc; provider: HocuspocusProvider; close: () => void };

async function ticketUrl(kind: RoomKindName, id: string): Promise<string> {
  const { url } = await web.call(KIND[kind].api.ticket, { params: { id } });
  return url;
}

export async function connect(
  kind: RoomKindName,
  id: string,
  handlers: { onEvent: (event: ServerEvent) => void; onStatus: (status: Status) => void; onSynced: () => void },
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
      let event: ServerEvent;
      try {
        event = JSON.parse(payload) as ServerEvent;
      } catch {
        return;
      }
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
