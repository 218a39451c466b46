// Page history on the realtime node (lib/rooms/history.ts keeps and restores
// the snapshots): this node notes who changes which page through its sockets,
// and records snapshots when it stores a document and before it unloads one.
// A restore is written to the room's log by the API; `applyLog` brings it
// into an open document, from which Hocuspocus sends it to every socket.
import type { Document, Extension } from '@hocuspocus/server';
import * as Y from 'yjs';
import { log } from '../lib/log.ts';
import { currentRoomState } from '../lib/rooms/document-store.ts';
import { recordEditSnapshots, recordFirstSnapshots } from '../lib/rooms/history.ts';
import type { SocketConnection, SocketContext } from './socket.ts';

const PAGE_PREFIX = 'page:';

/** Per open document: page id -> ids of the people who changed it since its last snapshot. */
const editedPages = new WeakMap<Y.Doc, Map<string, Set<string>>>();

/** Per open document: its top-level types by name, turned round (Yjs never removes one, so a size change is the only change). */
const sharedNames = new WeakMap<Y.Doc, Map<unknown, string>>();

function nameOf(doc: Y.Doc, type: unknown): string | undefined {
  let names = sharedNames.get(doc);
  if (!names || names.size !== doc.share.size) sharedNames.set(doc, (names = new Map([...doc.share].map(([name, shared]) => [shared, name]))));
  return names.get(type);
}

/** Notes which pages a socket's transaction changed, and who sent it (on every update: kept to a lookup or two). */
function noteEditors(doc: Y.Doc, transaction: Y.Transaction) {
  const origin = transaction.origin as { source?: string; connection?: SocketConnection } | null;
  if (origin?.source !== 'connection' || !origin.connection) return;
  for (const type of transaction.changedParentTypes.keys()) {
    if (type._item !== null) continue; // not a top-level type
    const name = nameOf(doc, type);
    if (!name?.startsWith(PAGE_PREFIX)) continue;
    const pages = editedPages.get(doc) ?? editedPages.set(doc, new Map()).get(doc)!;
    const pageId = name.slice(PAGE_PREFIX.length);
    (pages.get(pageId) ?? pages.set(pageId, new Set()).get(pageId)!).add(origin.connection.context.user.id);
  }
}

async function snapshot(document: Document, closing: boolean) {
  const pages = editedPages.get(document);
  if (!pages?.size) return;
  try {
    for (const pageId of await recordEditSnapshots(document.name, document, pages, closing)) pages.delete(pageId);
  } catch (error) {
    // History is best effort: the document itself is stored whatever happens here.
    log.warn('page snapshots not recorded', { roomId: document.name, error: error instanceof Error ? error.message : String(error) });
  }
}

export const pageHistory: Extension<SocketContext> = {
  extensionName: 'page-history',
  async afterLoadDocument({ document, documentName }) {
    document.on('afterTransaction', (transaction: Y.Transaction) => noteEditors(document, transaction));
    void recordFirstSnapshots(documentName, document).catch((error: unknown) =>
      log.warn('first page snapshots not recorded', { roomId: documentName, error: error instanceof Error ? error.message : String(error) }),
    );
  },
  // After persistence (it comes first in the list): what is snapshotted is stored.
  async onStoreDocument({ document }) {
    await snapshot(document, document.getConnectionsCount() === 0);
  },
  async beforeUnloadDocument({ document }) {
    await snapshot(document, true);
  },
};

/**
 * Applies the room's durable state (stored document and log) to the open
 * document: whatever it lacks, a restore above all, is applied and sent to
 * every socket. Applying what it already holds changes nothing.
 */
export async function applyLog(document: Document): Promise<void> {
  try {
    const state = await currentRoomState(document.name);
    if (state) Y.applyUpdate(document, state, { source: 'local' });
  } catch (error) {
    log.warn('room log not applied', { roomId: document.name, error: error instanceof Error ? error.message : String(error) });
  }
}
