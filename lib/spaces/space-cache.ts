// The space records that requests of visitors who are nobody in particular
// (no session, no token, no unlock) need, kept in memory on each node of the
// front server: every file of a public site would otherwise cost a statement.
//
// Fresh by construction: PostgreSQL tells every node of any change. A trigger
// on "Space" (and on "Workspace", whose name and slug a record carries)
// notifies the `atrium_spaces` channel in the changing transaction, so the
// notice goes out when it commits, whatever code made the change (a commit, a
// new password, a deletion, a cascade). Each node listens on a connection of
// its own and forgets the record. Until a node listens, after the connection
// drops, and while it reconnects, it keeps nothing and asks PostgreSQL every
// time. The node that makes a change also forgets the record at once
// (spaceChanged), so its own next request never waits for the notice.
// Other nodes serve the old record for as long as the notice takes to arrive
// (milliseconds); RECORD_LIFETIME_MS bounds any staleness this design did
// not foresee.
import { listen } from '../db/listen.ts';

export const SPACE_CHANNEL = 'atrium_spaces';
const RECORD_LIFETIME_MS = 60_000;
/** Enough for every space a node serves at once; past it the cache starts over. */
const MAX_RECORDS = 20_000;

type Kept<Row> = { row: Row; workspaceId: string; at: number };
const kept = new Map<string, Kept<unknown>>();
// Bumped by every change heard: a load that began before a change must not store what it read.
let generation = 0;
let listening = false;
let users = 0;
let listener: ReturnType<typeof listen> | null = null;

function forget(payload: string) {
  generation++;
  if (payload.startsWith('w:')) {
    const workspaceId = payload.slice(2);
    for (const [id, entry] of kept) if (entry.workspaceId === workspaceId) kept.delete(id);
  } else {
    kept.delete(payload);
  }
}

/** This node changed a space: forget it now rather than when the notice comes back. */
export function spaceChanged(id: string): void {
  forget(id);
}

/**
 * The record for an anonymous request: kept when the node listens for
 * changes, else loaded each time. `load` reads it from PostgreSQL.
 */
export async function anonymousRecord<Row extends { workspaceId: string }>(id: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
  if (!listening) return load();
  const entry = kept.get(id) as Kept<Row> | undefined;
  if (entry && Date.now() - entry.at < RECORD_LIFETIME_MS) return entry.row;
  const started = generation;
  const row = await load();
  // A space that does not exist is not kept: ids are never reused, and keeping misses would let anyone fill the memory.
  if (row && listening && generation === started) {
    if (kept.size >= MAX_RECORDS) kept.clear();
    kept.set(id, { row, workspaceId: row.workspaceId, at: Date.now() });
  }
  return row;
}

/** The listening connection's application_name in PostgreSQL. */
export function listenerName(): string {
  return `atrium-space-cache:${process.pid}`;
}

/** Starts listening (once per process, however many servers ask); the returned function stops this user's share. */
export function listenForSpaceChanges(): () => Promise<void> {
  if (users++ === 0) {
    listener = listen(SPACE_CHANNEL, {
      name: 'space cache',
      applicationName: listenerName(),
      onNotice: forget,
      onListening: () => (listening = true),
      // Changes may be missed from here on: keep nothing until listening again.
      onLost: () => {
        listening = false;
        kept.clear();
      },
    });
  }
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    if (--users > 0) return;
    listening = false;
    kept.clear();
    await listener?.stop();
    listener = null;
  };
}
