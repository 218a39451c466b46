// Where a room's document lives: Room.roomDoc (the whole state, stored a
// moment after edits stop) and RoomUpdate (every update appended before the
// realtime server acknowledges it, deleted once a stored state holds it).
// Whoever reads a room's document reads both (currentRoomState).
import * as Y from 'yjs';
import { db, query } from '../db/client.ts';

/**
 * The room's stored Yjs state (Room.roomDoc, null for a new room) and the
 * logged updates not yet folded into it, in order, with their ids.
 */
export async function loadRoomState(roomId: string): Promise<{ state: Uint8Array | null; logged: { id: bigint; update: Uint8Array }[] }> {
  const [row, logged] = await Promise.all([
    db.room.findUnique({ where: { id: roomId }, select: { roomDoc: true } }),
    db.roomUpdate.findMany({ where: { roomId }, orderBy: { id: 'asc' }, select: { id: true, update: true } }),
  ]);
  return { state: row?.roomDoc ? new Uint8Array(row.roomDoc) : null, logged: logged.map((l) => ({ id: l.id, update: new Uint8Array(l.update) })) };
}

/** The room's document as it stands: the stored state with its logged updates, as one update (null for a room never written). */
export async function currentRoomState(roomId: string): Promise<Uint8Array | null> {
  const { state, logged } = await loadRoomState(roomId);
  const parts = [...(state ? [state] : []), ...logged.map((entry) => entry.update)];
  return parts.length === 0 ? null : parts.length === 1 ? parts[0] : Y.mergeUpdates(parts);
}

const APPEND = `
  WITH given AS (
    SELECT nextval(pg_get_serial_sequence('"RoomUpdate"', 'id')) AS id, x.room_id, x.update, x.i::int AS i
    FROM unnest($1::text[], $2::bytea[]) WITH ORDINALITY AS x(room_id, update, i)
    WHERE EXISTS (SELECT 1 FROM "Room" r WHERE r.id = x.room_id)
  ), inserted AS (
    INSERT INTO "RoomUpdate" ("id", "roomId", "update") SELECT id, room_id, update FROM given
  )
  SELECT id, i FROM given`;

/**
 * Appends updates to their rooms' logs in one statement; answers each one's
 * id, in order, or null for a room that no longer exists.
 */
export async function appendRoomUpdates(entries: { roomId: string; update: Uint8Array }[]): Promise<(bigint | null)[]> {
  // Plain SQL on the shared pool: a hot path, one statement per batch of keystrokes.
  const rows = await query<{ id: string; i: number }>(APPEND, [entries.map((e) => e.roomId), entries.map((e) => Buffer.from(e.update))]);
  const ids: (bigint | null)[] = entries.map(() => null);
  for (const row of rows) ids[row.i - 1] = BigInt(row.id);
  return ids;
}

/**
 * Stores the room's Yjs state, counting a version and naming who edited
 * last, and deletes the logged updates it now holds, in one transaction.
 */
export async function storeRoomState(roomId: string, state: Uint8Array, editedBy: string | null, folded: bigint[]): Promise<void> {
  await db.$transaction([
    db.room.updateMany({
      where: { id: roomId },
      data: { roomDoc: Buffer.from(state), latestVersion: { increment: 1 }, ...(editedBy ? { lastActivity: `edited by @${editedBy}`, lastActivityAt: new Date() } : {}) },
    }),
    db.roomUpdate.deleteMany({ where: { id: { in: folded } } }),
  ]);
}
