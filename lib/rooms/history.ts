// Page history: snapshots of each page of a room or live space, a Markdown
// diff between any two, and restore.
//   - The realtime node records a snapshot of each page people changed when it
//     stores the document (from the durable log: roomDoc and RoomUpdate), at
//     most one per SNAPSHOT_EVERY_MS per page, and always when the last socket
//     leaves; a page with none yet gets one when its room is loaded, so the
//     state before the first edit is kept. Anyone with edit takes one on
//     demand with a name.
//   - A restore is one new update appended to the room's log (the page made
//     to hold the snapshot, changing only what differs), in the transaction
//     that records the page as it was: a crash leaves both or neither. Every
//     realtime node then applies the log to its open document, which sends the
//     change to everyone connected.
//   - Kept 30 days; before that, one snapshot per page and week (a named one
//     when the week has one): pruned whenever a page's snapshot is recorded.
import type { JSONContent } from '@tiptap/core';
import * as Y from 'yjs';
import { roomAccess } from '../access/rooms.ts';
import type { SignedInCaller } from '../core/caller.ts';
import { ApiError } from '../core/errors.ts';
import { lineDiff } from '../core/line-diff.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { publishRoomEvent } from '../db/bus.ts';
import { db } from '../db/client.ts';
import type { Prisma, RoomKind, RoomSnapshotReason } from '../db/generated/client.ts';
import { newId } from '../ids.ts';
import type { PageSnapshot, PageDiff } from '../schemas/rooms.ts';
import { pageContent, pageMarkdown, pagesOf, PAGES, setPageContent } from './document.ts';

/** At most one snapshot per page this often while people edit. */
export const SNAPSHOT_EVERY_MS = 5 * 60_000;
/** Every snapshot is kept this long; older ones are thinned to one per page and week. */
export const HISTORY_MS = 30 * 24 * 3600_000;
/** The most snapshots one list answers (newest first). */
export const LIST_LIMIT = 200;

/** Named snapshots and restores per person, counted across instances. */
export const historyLimit = rateLimit({ name: 'room-history', points: 30, duration: 60, message: 'Too many snapshots or restores: at most 30 a minute. Wait a moment.' });

type Tx = Prisma.TransactionClient;

/** A page's state as a snapshot keeps it; null when the page is not in the document or cannot be read. */
function pageState(doc: Y.Doc, pageId: string): { title: string; content: JSONContent; markdown: string } | null {
  const page = pagesOf(doc).find((p) => p.id === pageId);
  const content = page && pageContent(doc, pageId);
  return page && content ? { title: page.title, content, markdown: pageMarkdown(doc, pageId) } : null;
}

/** Drops what the window no longer keeps for one page: past HISTORY_MS, all but one per week (a named one first). */
async function prune(client: Tx | typeof db, roomId: string, pageId: string, now = Date.now()): Promise<void> {
  await client.$executeRaw`
    DELETE FROM "RoomPageSnapshot" s USING (
      SELECT id, row_number() OVER (PARTITION BY date_trunc('week', "createdAt") ORDER BY (reason = 'named') DESC, "createdAt" DESC) AS n
      FROM "RoomPageSnapshot" WHERE "roomId" = ${roomId} AND "pageId" = ${pageId} AND "createdAt" < ${new Date(now - HISTORY_MS)}
    ) old
    WHERE s.id = old.id AND old.n > 1`;
}

type Recorded = { roomId: string; pageId: string; reason: RoomSnapshotReason; name?: string | null; editorIds?: string[]; createdById?: string | null };

async function record(client: Tx | typeof db, doc: Y.Doc, what: Recorded): Promise<string | null> {
  const state = pageState(doc, what.pageId);
  if (!state) return null;
  const id = newId('roomSnapshot');
  await client.roomPageSnapshot.create({
    data: { id, ...what, title: state.title, content: state.content as Prisma.InputJsonValue, markdown: state.markdown, editorIds: what.editorIds ?? [] },
  });
  await prune(client, what.roomId, what.pageId);
  return id;
}

// --- What the realtime node records --------------------------------------------

/** The newest snapshot of each of the room's pages (when and its Markdown). */
async function newestSnapshots(roomId: string): Promise<Map<string, { createdAt: Date; title: string; markdown: string }>> {
  const rows = await db.$queryRaw<{ pageId: string; createdAt: Date; title: string; markdown: string }[]>`
    SELECT DISTINCT ON ("pageId") "pageId", "createdAt", title, markdown FROM "RoomPageSnapshot"
    WHERE "roomId" = ${roomId} ORDER BY "pageId", "createdAt" DESC`;
  return new Map(rows.map((row) => [row.pageId, row]));
}

/** At load: a first snapshot of each page that has none, so the state before anyone's edit is kept. */
export async function recordFirstSnapshots(roomId: string, doc: Y.Doc): Promise<void> {
  const newest = await newestSnapshots(roomId);
  for (const page of pagesOf(doc)) {
    if (!newest.has(page.id)) await record(db, doc, { roomId, pageId: page.id, reason: 'edits' });
  }
}

/**
 * When the node stores the document: a snapshot of each page in `edited`
 * (page -> who changed it) whose last one is older than SNAPSHOT_EVERY_MS, or
 * of every one when `closing` (the last socket left). Answers the pages dealt
 * with: their editors are now recorded (or nothing changed); the others wait.
 */
export async function recordEditSnapshots(roomId: string, doc: Y.Doc, edited: Map<string, Set<string>>, closing: boolean): Promise<string[]> {
  if (edited.size === 0) return [];
  const newest = await newestSnapshots(roomId);
  const done: string[] = [];
  for (const [pageId, editors] of edited) {
    const last = newest.get(pageId);
    if (last && !closing && Date.now() - last.createdAt.getTime() < SNAPSHOT_EVERY_MS) continue;
    const state = pageState(doc, pageId);
    // A page deleted since, or back as it was: nothing to record.
    if (state && !(last && last.markdown === state.markdown && last.title === state.title)) {
      await record(db, doc, { roomId, pageId, reason: 'edits', editorIds: [...editors] });
    }
    done.push(pageId);
  }
  return done;
}

// --- The API ---------------------------------------------------------------------

/** The document as the durable log holds it (roomDoc, then the log), read under the room's row lock when in `tx`. */
async function loggedDocument(client: Tx | typeof db, roomId: string, lock: boolean): Promise<Y.Doc> {
  // The lock keeps a store (which updates the room row, then deletes the log it folded) from running between the two reads.
  const [room] = lock
    ? await client.$queryRaw<{ roomDoc: Uint8Array | null }[]>`SELECT "roomDoc" FROM "Room" WHERE id = ${roomId} FOR UPDATE`
    : await client.$queryRaw<{ roomDoc: Uint8Array | null }[]>`SELECT "roomDoc" FROM "Room" WHERE id = ${roomId}`;
  const logged = await client.roomUpdate.findMany({ where: { roomId }, orderBy: { id: 'asc' }, select: { update: true } });
  const doc = new Y.Doc();
  if (room?.roomDoc) Y.applyUpdate(doc, room.roomDoc);
  for (const entry of logged) Y.applyUpdate(doc, entry.update);
  return doc;
}

const pageNotFound = (pageId: string) => new ApiError('not_found', `No page "${pageId.slice(0, 100)}" in this room (or it has no history).`);

const snapshotSelect = {
  id: true,
  pageId: true,
  title: true,
  reason: true,
  name: true,
  editorIds: true,
  createdAt: true,
  createdById: true,
} as const;

type SnapshotRow = { id: string; pageId: string; title: string; reason: RoomSnapshotReason; name: string | null; editorIds: string[]; createdAt: Date; createdById: string | null };

/** Rows as the API answers them, with the people named (a deleted account is left out of editors, null as creator). */
async function present(rows: SnapshotRow[]): Promise<PageSnapshot[]> {
  const ids = [...new Set(rows.flatMap((row) => [...row.editorIds, ...(row.createdById ? [row.createdById] : [])]))];
  const users = new Map((await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, handle: true, name: true } })).map((u) => [u.id, u]));
  return rows.map((row) => ({
    id: row.id,
    pageId: row.pageId,
    title: row.title,
    reason: row.reason,
    name: row.name,
    editors: row.editorIds.flatMap((id) => users.get(id) ?? []),
    createdBy: (row.createdById && users.get(row.createdById)) || null,
    createdAt: row.createdAt.getTime(),
  }));
}

/** A page's snapshots, newest first. */
export async function listHistory({ actor }: SignedInCaller, kind: RoomKind, roomId: string, pageId: string): Promise<PageSnapshot[]> {
  await roomAccess(actor.user.id, kind, roomId, 'view');
  const rows = await db.roomPageSnapshot.findMany({ where: { roomId, pageId }, orderBy: { createdAt: 'desc' }, take: LIST_LIMIT, select: snapshotSelect });
  return present(rows);
}

/** A snapshot of the page as it stands now, with a name. */
export async function nameSnapshot({ actor }: SignedInCaller, kind: RoomKind, roomId: string, pageId: string, name: string): Promise<PageSnapshot> {
  await roomAccess(actor.user.id, kind, roomId, 'edit');
  await historyLimit.consume(actor.user.id);
  const doc = await loggedDocument(db, roomId, false);
  try {
    const id = await record(db, doc, { roomId, pageId, reason: 'named', name, createdById: actor.user.id });
    if (!id) throw pageNotFound(pageId);
    const [snapshot] = await present([await db.roomPageSnapshot.findUniqueOrThrow({ where: { id }, select: snapshotSelect })]);
    return snapshot;
  } finally {
    doc.destroy();
  }
}

/** The Markdown of a snapshot of this page, or of the page now (`current`). */
async function versionMarkdown(roomId: string, pageId: string, which: string): Promise<string> {
  if (which === 'current') {
    const doc = await loggedDocument(db, roomId, false);
    const state = pageState(doc, pageId);
    doc.destroy();
    if (!state) throw pageNotFound(pageId);
    return state.markdown;
  }
  const row = await db.roomPageSnapshot.findFirst({ where: { id: which, roomId, pageId }, select: { markdown: true } });
  if (!row) throw new ApiError('not_found', `No snapshot "${which.slice(0, 100)}" of this page.`);
  return row.markdown;
}

/** What changed from one version of the page to another: a line diff of their Markdown. */
export async function diffHistory({ actor }: SignedInCaller, kind: RoomKind, roomId: string, pageId: string, from: string, to: string): Promise<PageDiff> {
  await roomAccess(actor.user.id, kind, roomId, 'view');
  const [before, after] = await Promise.all([versionMarkdown(roomId, pageId, from), versionMarkdown(roomId, pageId, to)]);
  const lines = lineDiff(before, after);
  return {
    from,
    to,
    // Lines with text: the blank lines between paragraphs come and go with them.
    added: lines.filter((line) => line.op === 'add' && line.text.trim()).length,
    removed: lines.filter((line) => line.op === 'remove' && line.text.trim()).length,
    lines,
  };
}

/**
 * Makes the page hold the snapshot again, as a new change: the page as it
 * was is recorded first (reason `restore`), and both are one transaction.
 */
export async function restoreSnapshot({ actor }: SignedInCaller, kind: RoomKind, roomId: string, pageId: string, snapshotId: string): Promise<{ restored: PageSnapshot; before: PageSnapshot }> {
  await roomAccess(actor.user.id, kind, roomId, 'edit');
  await historyLimit.consume(actor.user.id);
  const snapshot = await db.roomPageSnapshot.findFirst({ where: { id: snapshotId, roomId, pageId }, select: { ...snapshotSelect, content: true } });
  if (!snapshot) throw new ApiError('not_found', `No snapshot "${snapshotId.slice(0, 100)}" of this page.`);
  const label = snapshot.name ? `"${snapshot.name}"` : `the version of ${snapshot.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const beforeId = await db.$transaction(
    async (tx) => {
      const doc = await loggedDocument(tx, roomId, true);
      try {
        const entry = doc.getArray<unknown>(PAGES).toArray().find((m): m is Y.Map<unknown> => m instanceof Y.Map && m.get('id') === pageId);
        if (!entry) throw new ApiError('conflict', 'This page was deleted from the document: it cannot be restored.');
        const id = await record(tx, doc, { roomId, pageId, reason: 'restore', name: `Before restoring ${label}`, createdById: actor.user.id });
        const vector = Y.encodeStateVector(doc);
        doc.transact(() => {
          setPageContent(doc, pageId, snapshot.content as JSONContent);
          if (entry.get('title') !== snapshot.title) entry.set('title', snapshot.title);
        });
        await tx.roomUpdate.create({ data: { roomId, update: Buffer.from(Y.encodeStateAsUpdate(doc, vector)) } });
        await tx.room.update({ where: { id: roomId }, data: { lastActivity: `page restored by @${actor.user.handle}`, lastActivityAt: new Date() } });
        return id!;
      } finally {
        doc.destroy();
      }
    },
    { timeout: 30_000 },
  );
  await publishRoomEvent({ kind: 'restored', roomId });
  const [restored, before] = await present([snapshot, await db.roomPageSnapshot.findUniqueOrThrow({ where: { id: beforeId }, select: snapshotSelect })]);
  return { restored, before };
}
