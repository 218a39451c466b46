// Persistence of room documents, durable before acknowledgement:
//   - every update a socket sends is appended to the room's log (RoomUpdate)
//     before Hocuspocus applies it and acknowledges it to the client, so an
//     acknowledged edit survives a kill -9 of the node;
//   - a moment after edits stop (Hocuspocus's debounce) the whole document is
//     stored in Room.roomDoc and the logged updates it now holds are deleted;
//   - loading a room applies roomDoc, then the log, in order.
// Appends are group-committed: while one INSERT is in flight, the updates that
// arrive meanwhile wait and go together in the next, so a busy node pays about
// one round trip per batch rather than per keystroke.
import type { afterHandleMessagePayload, afterUnloadDocumentPayload, beforeHandleMessagePayload, Connection, Extension, onLoadDocumentPayload, onStoreDocumentPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { frameUpdate } from '../lib/rooms/document-model.ts';
import { appendRoomUpdates, loadRoomState, storeRoomState } from '../lib/rooms/document-store.ts';
import type { SocketContext } from './socket.ts';

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

class RoomGone extends Error {
  reason = 'This room no longer exists.';
}

export function createPersistence(): Extension {
  const append = groupCommit();
  /** Per document: logged updates now applied to it (deleted at the next store). */
  const applied = new Map<string, bigint[]>();
  /** The logged update a connection is applying now (its messages are handled one at a time). */
  const inFlight = new WeakMap<Connection, bigint>();
  const foldedOf = (name: string) => applied.get(name) ?? applied.set(name, []).get(name)!;

  return {
    extensionName: 'persistence',
    async onLoadDocument({ document, documentName }: onLoadDocumentPayload) {
      const { state, logged } = await loadRoomState(documentName);
      if (state) Y.applyUpdate(document, state);
      for (const entry of logged) Y.applyUpdate(document, entry.update);
      applied.set(
        documentName,
        logged.map((entry) => entry.id),
      );
      return document;
    },
    // After the model check (documentModel runs first), before Hocuspocus applies and acknowledges.
    async beforeHandleMessage({ update, documentName, connection }: beforeHandleMessagePayload) {
      if (connection.readOnly) return; // its updates are refused, not applied
      const carried = frameUpdate(update);
      // An empty update (a new client's sync step 2) changes nothing: nothing to keep.
      if (!carried || carried.byteLength <= 2) return;
      const id = await append(documentName, carried);
      if (id === null) throw new RoomGone();
      inFlight.set(connection, id);
    },
    async afterHandleMessage({ connection, documentName }: afterHandleMessagePayload) {
      const id = inFlight.get(connection);
      if (id === undefined) return;
      inFlight.delete(connection);
      foldedOf(documentName).push(id);
    },
    async onStoreDocument({ document, documentName, lastContext }: onStoreDocumentPayload<SocketContext>) {
      // Taken before encoding: each of these is applied, so the state below holds it.
      const folded = foldedOf(documentName).splice(0);
      try {
        await storeRoomState(documentName, Y.encodeStateAsUpdate(document), lastContext?.user?.handle ?? null, folded);
      } catch (error) {
        foldedOf(documentName).unshift(...folded);
        throw error;
      }
    },
    async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
      applied.delete(documentName);
    },
  };
}
