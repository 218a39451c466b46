// Node clients of room sockets with @hocuspocus/provider, as the web editor
// connects: a ticket from the API, then the socket, the document and the
// stateless messages (chat, access) collected for assertions.
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import type { Person, World } from '../http/world.ts';

export type Client = {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** Every stateless message received, parsed. */
  messages: any[];
  closed: { code: number; reason: string } | null;
  /** The first page's text, as plain text. */
  text: () => string;
  write: (value: string) => void;
  say: (body: string) => void;
  destroy: () => void;
};

export async function waitFor<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function ticketUrl(w: World, person: Person, roomId: string, prefix = 'rooms', origin = w.origin): Promise<string> {
  const { url } = await w.must(200, 'POST', `/v1/${prefix}/${roomId}/ticket`, { as: person });
  // Tickets name the server's public URL; tests reach the server they started.
  const parsed = new URL(url);
  return `${origin.replace(/^http/, 'ws')}${parsed.pathname}${parsed.search}`;
}

/** Connects and waits for the first sync. */
export async function connect(url: string, roomId: string, options: { sync?: boolean } = {}): Promise<Client> {
  const doc = new Y.Doc();
  const messages: any[] = [];
  const client: Client = {
    provider: undefined as unknown as HocuspocusProvider,
    doc,
    messages,
    closed: null,
    text: () => {
      const pages = doc.getArray<Y.Map<string>>('pages');
      const first = pages.get(0)?.get('id');
      return first ? fragmentText(doc.getXmlFragment(`page:${first}`)) : '';
    },
    write: (value) => {
      const first = doc.getArray<Y.Map<string>>('pages').get(0).get('id');
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(value)]);
      doc.getXmlFragment(`page:${first}`).insert(0, [paragraph]);
    },
    say: (body) => client.provider.sendStateless(JSON.stringify({ kind: 'chat.send', body })),
    destroy: () => client.provider.destroy(),
  };
  client.provider = new HocuspocusProvider({
    url,
    name: roomId,
    document: doc,
    token: 'ticket',
    onStateless: ({ payload }) => messages.push(JSON.parse(payload)),
    onClose: ({ event }) => {
      client.closed ??= { code: event.code, reason: event.reason };
    },
  });
  // A refused ticket must not be retried for ever.
  client.provider.configuration.websocketProvider.configuration.maxAttempts = 1;
  if (options.sync !== false) await waitFor('the first sync', () => client.provider.isSynced);
  return client;
}

function fragmentText(fragment: Y.XmlFragment): string {
  const out: string[] = [];
  const walk = (node: Y.XmlElement | Y.XmlText | Y.XmlFragment) => {
    if (node instanceof Y.XmlText) out.push(node.toString());
    else node.toArray().forEach((child) => walk(child as Y.XmlElement));
  };
  walk(fragment);
  return out.join('\n');
}
