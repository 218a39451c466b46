// Persistence of room documents, durable before acknowledgement:
//   - every update a socket sends is appended to the room's log (RoomUpdate),
//     and the client's acknowledgement (Hocuspocus's sync status "applied")
//     waits for that append, so an acknowledged edit survives a kill -9 of the
//     node. The wait is in the transport Hocuspocus is handed
//     (durableTransport), the seam it supports for any WebSocket-like object. The update itself is applied and sent to the room at once: until
//     it is acknowledged the writer's client keeps it and sends it again after
//     a reconnect, so a crash in between loses nothing either;
//   - a moment after edits stop (Hocuspocus's debounce) the whole document is
//     stored in Room.roomDoc and the logged updates it now holds are deleted;
//   - loading a room applies roomDoc, then the log, in order.
// Appends are group-committed: while one INSERT is in flight, the updates that
// arrive meanwhile wait and go together in the next, so a busy node pays about
// one round trip per batch rather than per keystroke.
import type { Extension, WebSocketLike } from '@hocuspocus/server';
import type { Peer } from 'crossws';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { log } from '../lib/log.ts';
import { frameUpdate } from '../lib/rooms/document-model.ts';
import { appendRoomUpdates, loadRoomState, storeRoomState } from '../lib/rooms/document-store.ts';
import { checkUpdate } from './extensions.ts';
import { CLOSE_FORBIDDEN, RECONNECT_CLOSE_CODE, type SocketContext, type SocketState } from './socket.ts';

type Pending = { roomId: string; update: Uint8Array; done: (id: bigint | null, error?: unknown) => void };

/** Appends updates in batches: one INSERT in flight at a time, the rest queued for the next. */
function groupCommit() {
  let queue: Pending[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const ids = await appendRoomUpdates(batch);
        batch.forEach((entry, i) => entry.done(ids[i]));
      } catch (error) {
        for (const entry of batch) entry.done(null, error);
      }
    }
    flushing = false;
  };
  return (roomId: string, update: Uint8Array) =>
    new Promise<bigint | null>((resolve, reject) => {
      queue.push({ roomId, update, done: (id, error) => (error ? reject(error) : resolve(id)) });
      if (!flushing) void flush();
    });
}

/** Hocuspocus's sync status frame: the document's name, then message type 8. */
function isSyncStatus(frame: Uint8Array): boolean {
  const decoder = decoding.createDecoder(frame);
  decoding.readVarString(decoder);
  return decoding.readVarUint(decoder) === SYNC_STATUS;
}
const SYNC_STATUS = 8;

/**
 * The socket as Hocuspocus sees it: every frame goes out at once except an
 * acknowledgement, which waits until the socket's updates so far are logged.
 */
export function durableTransport(peer: Peer, socket: SocketState): WebSocketLike {
  return {
    send(frame) {
      const logged = socket.logged;
      if (!logged || !(frame instanceof Uint8Array) || !isSyncStatus(frame)) return peer.send(frame);
      void logged.then(() => peer.send(frame));
    },
    close: (code, reason) => peer.close(code, reason),
    get readyState() {
      return peer.websocket.readyState ?? WebSocket.CLOSED;
    },
  };
}

export function createPersistence(): Extension<SocketContext> {
  const append = groupCommit();
  /** Per document: logged updates now applied to it (deleted at the next store). */
  const applied = new Map<string, bigint[]>();
  const foldedOf = (name: string) => applied.get(name) ?? applied.set(name, []).get(name)!;

  return {
    extensionName: 'persistence',
    async onLoadDocument({ document, documentName }) {
      const { state, logged } = await loadRoomState(documentName);
      if (state) Y.applyUpdate(document, state);
      for (const entry of logged) Y.applyUpdate(document, entry.update);
      applied.set(
        documentName,
        logged.map((entry) => entry.id),
      );
      return document;
    },
    // The one hook an update passes before Hocuspocus applies it: the model
    // check (a misfit is neither logged nor applied), then the log. Not
    // awaited: Hocuspocus applies the update and relays it now; only the
    // writer's acknowledgement waits for the log.
    async beforeHandleMessage({ update, document, documentName, connection, context }) {
      const carried = frameUpdate(update);
      if (!carried) return;
      checkUpdate(document, carried, context);
      if (connection.readOnly) return; // its updates are refused, not applied
      // An empty update (a new client's sync step 2) changes nothing: nothing to keep.
      if (carried.byteLength <= 2) return;
      const { socket } = context;
      const previous = socket.logged;
      const logged = append(documentName, carried).then(
        (id) => {
          // Applied by now (the append takes a round trip; the update was applied right after this hook).
          if (id !== null) return void foldedOf(documentName).push(id);
          socket.close(CLOSE_FORBIDDEN, 'Room deleted');
          return Promise.reject(new Error('room deleted'));
        },
        (error: unknown) => {
          // Not logged, so never acknowledged: the client sends it again after reconnecting.
          log.error('room update not logged', { roomId: documentName, error: error instanceof Error ? error.message : String(error) });
          socket.close(RECONNECT_CLOSE_CODE, 'Reconnect');
          return Promise.reject(error);
        },
      );
      // In order: an acknowledgement waits for every earlier append of the socket too; after a failure, never.
      socket.logged = Promise.all([previous, logged]).catch(() => new Promise(() => {}));
    },
    async onStoreDocument({ document, documentName, lastContext }) {
      // Taken before encoding: each of these is applied, so the state below holds it.
      const folded = foldedOf(documentName).splice(0);
      try {
        await storeRoomState(documentName, Y.encodeStateAsUpdate(document), lastContext?.user?.handle ?? null, folded);
      } catch (error) {
        foldedOf(documentName).unshift(...folded);
        throw error;
      }
    },
    async afterUnloadDocument({ documentName }) {
      applied.delete(documentName);
    },
  };
}
