// A hostile room client: a bare WebSocket speaking the Hocuspocus protocol by
// hand (lib0 encoding), as an attacker would. Unlike @hocuspocus/provider it
// never disconnects because the server asked it to: it goes on sending Auth,
// sync and updates on the same socket, so tests see what the server itself
// enforces.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import WebSocket from 'ws';
import type { IncomingHttpHeaders } from 'node:http';
import { waitFor } from './socket-helpers.ts';

// The protocol's message and sub-message numbers (@hocuspocus/common).
const SYNC = 0;
const AUTH = 2;
const STATELESS = 5;
const CLOSE = 7;
const SYNC_STATUS = 8;
const AUTH_TOKEN = 0;
const AUTH_DENIED = 1;
const AUTH_OK = 2;

export type RawClient = {
  socket: WebSocket;
  doc: Y.Doc;
  /** The scope of every Auth answer: 'read-write', 'readonly'. */
  scopes: string[];
  /** The reason of every refused Auth. */
  denied: string[];
  /** Every stateless message, parsed. */
  messages: any[];
  /** Hocuspocus CLOSE messages (the document was closed, the socket may remain). */
  closeMessages: string[];
  /** Updates the server applied (SyncStatus true) and refused (false). */
  acked: number;
  refused: number;
  /** The WebSocket's close code, once it closed. */
  closeCode: number | null;
  /** Sends Auth and sync step 1, as a provider does on connect: for the room, or for another document address. */
  authenticate: (address?: string) => void;
  /** Asks the server to close the document (the socket stays). */
  closeDocument: () => void;
  /** Sends any Yjs update for the room, as it is. */
  sendUpdate: (update: Uint8Array) => void;
  /** Appends a paragraph to the first page and sends it. */
  write: (text: string) => void;
  say: (body: string) => void;
  sendStateless: (payload: string) => void;
  sendBytes: (bytes: Uint8Array | string) => void;
  text: () => string;
  isOpen: () => boolean;
  close: () => void;
};

export async function openRaw(url: string, roomId: string, options: { authenticate?: boolean } = {}): Promise<RawClient> {
  const socket = new WebSocket(url);
  const doc = new Y.Doc();
  // The first page's fragment, as the editor writes it (a room has one from its creation).
  const firstPage = () => doc.getXmlFragment(`page:${doc.getArray<Y.Map<string>>('pages').get(0)?.get('id')}`);
  const frame = (address: string, write: (e: encoding.Encoder) => void) => {
    const e = encoding.createEncoder();
    encoding.writeVarString(e, address);
    write(e);
    if (socket.readyState === WebSocket.OPEN) socket.send(encoding.toUint8Array(e));
  };
  const client: RawClient = {
    socket,
    doc,
    scopes: [],
    denied: [],
    messages: [],
    closeMessages: [],
    acked: 0,
    refused: 0,
    closeCode: null,
    authenticate: (address = roomId) => {
      frame(address, (e) => {
        encoding.writeVarUint(e, AUTH);
        encoding.writeVarUint(e, AUTH_TOKEN);
        encoding.writeVarString(e, 'ticket');
      });
      frame(address, (e) => {
        encoding.writeVarUint(e, SYNC);
        syncProtocol.writeSyncStep1(e, doc);
      });
    },
    closeDocument: () => frame(roomId, (e) => encoding.writeVarUint(e, CLOSE)),
    sendUpdate: (update) =>
      frame(roomId, (e) => {
        encoding.writeVarUint(e, SYNC);
        syncProtocol.writeUpdate(e, update);
      }),
    write: (text) => {
      const before = Y.encodeStateVector(doc);
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(text)]);
      firstPage().insert(firstPage().length, [paragraph]);
      client.sendUpdate(Y.encodeStateAsUpdate(doc, before));
    },
    say: (body) => client.sendStateless(JSON.stringify({ kind: 'chat.send', body })),
    sendStateless: (payload) =>
      frame(roomId, (e) => {
        encoding.writeVarUint(e, STATELESS);
        encoding.writeVarString(e, payload);
      }),
    sendBytes: (bytes) => socket.readyState === WebSocket.OPEN && socket.send(bytes),
    text: () =>
      firstPage()
        .toArray()
        .map((node) => (node instanceof Y.XmlElement ? node.toArray().map((child) => (child instanceof Y.XmlText ? child.toString() : '')).join('') : String(node)))
        .join('\n'),
    isOpen: () => socket.readyState === WebSocket.OPEN,
    close: () => socket.terminate(),
  };

  socket.on('message', (data: Buffer) => {
    const decoder = decoding.createDecoder(new Uint8Array(data));
    decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === AUTH) {
      const sub = decoding.readVarUint(decoder);
      if (sub === AUTH_OK) client.scopes.push(decoding.readVarString(decoder));
      if (sub === AUTH_DENIED) client.denied.push(decoding.readVarString(decoder));
    } else if (type === SYNC) {
      const reply = encoding.createEncoder();
      encoding.writeVarString(reply, roomId);
      encoding.writeVarUint(reply, SYNC);
      syncProtocol.readSyncMessage(decoder, reply, doc, 'server');
      // A sync step 1 from the server is answered with step 2, as providers do.
      if (encoding.length(reply) > roomId.length + 2 && socket.readyState === WebSocket.OPEN) socket.send(encoding.toUint8Array(reply));
    } else if (type === STATELESS) {
      client.messages.push(JSON.parse(decoding.readVarString(decoder)));
    } else if (type === CLOSE) {
      client.closeMessages.push(decoding.readVarString(decoder));
    } else if (type === SYNC_STATUS) {
      if (decoding.readVarUint(decoder) === 1) client.acked++;
      else client.refused++;
    }
  });
  const closed = new Promise<void>((resolve) =>
    socket.on('close', (code) => {
      client.closeCode = code;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => reject(new RawRefusal(response.statusCode ?? 0, response.headers)));
    socket.once('error', reject);
  });
  void closed;
  if (options.authenticate !== false) {
    client.authenticate();
    await waitFor('the Auth answer', () => client.scopes.length + client.denied.length > 0 || client.closeCode !== null);
  }
  return client;
}

/** An upgrade answered with an HTTP status instead of a socket. */
export class RawRefusal extends Error {
  status: number;
  headers: IncomingHttpHeaders;
  constructor(status: number, headers: IncomingHttpHeaders = {}) {
    super(`upgrade refused with ${status}`);
    this.status = status;
    this.headers = headers;
  }
}
