// A lean room client for the benchmarks: a WebSocket speaking the Hocuspocus
// protocol (Auth, Yjs sync, updates) and nothing else, so that it does the
// same work per message as the bare relay's client and the figures compare
// the servers, not two client libraries. The editor's provider adds awareness
// on top; the benchmark leaves it out on both sides.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

const SYNC = 0;
const AUTH = 2;
const QUERY_AWARENESS = 3;
const AUTH_TOKEN = 0;

/** Hocuspocus closes a socket that sends nothing for 30 s; a reader asks for awareness now and then instead. */
const KEEPALIVE_MS = 10_000;

export type RoomClient = { doc: Y.Doc; close(): void };

/** Connects with a ticket URL, authenticates, and resolves once the document is synced. */
export function connectRoom(url: string, name: string, doc: Y.Doc, timeoutMs = 30_000): Promise<RoomClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    const frame = (write: (e: encoding.Encoder) => void) => {
      const e = encoding.createEncoder();
      encoding.writeVarString(e, name);
      write(e);
      if (socket.readyState === WebSocket.OPEN) socket.send(encoding.toUint8Array(e));
    };
    let keepalive: ReturnType<typeof setInterval> | undefined;
    const close = () => {
      clearInterval(keepalive);
      doc.off('update', onUpdate);
      socket.close();
    };
    const timer = setTimeout(() => {
      close();
      reject(new Error(`${name}: no sync within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const onUpdate = (update: Uint8Array, origin: unknown) => {
      if (origin === socket) return;
      frame((e) => {
        encoding.writeVarUint(e, SYNC);
        syncProtocol.writeUpdate(e, update);
      });
    };
    socket.onopen = () => {
      frame((e) => {
        encoding.writeVarUint(e, AUTH);
        encoding.writeVarUint(e, AUTH_TOKEN);
        encoding.writeVarString(e, 'ticket');
      });
      frame((e) => {
        encoding.writeVarUint(e, SYNC);
        syncProtocol.writeSyncStep1(e, doc);
      });
      keepalive = setInterval(() => frame((e) => encoding.writeVarUint(e, QUERY_AWARENESS)), KEEPALIVE_MS + Math.random() * 1000);
    };
    socket.onmessage = (event) => {
      const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
      decoding.readVarString(decoder);
      if (decoding.readVarUint(decoder) !== SYNC) return;
      const reply = encoding.createEncoder();
      encoding.writeVarString(reply, name);
      encoding.writeVarUint(reply, SYNC);
      const kind = syncProtocol.readSyncMessage(decoder, reply, doc, socket);
      if (encoding.length(reply) > name.length + 2 && socket.readyState === WebSocket.OPEN) socket.send(encoding.toUint8Array(reply));
      if (kind === syncProtocol.messageYjsSyncStep2) {
        clearTimeout(timer);
        resolve({ doc, close });
      }
    };
    socket.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`${name}: socket error`));
    };
    doc.on('update', onUpdate);
  });
}
