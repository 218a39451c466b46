// What the space-database fault tests check on disk: a node's cache file of a
// space, SQLite's own verdict on it, and the bytes the history replays to.
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { config } from '@/lib/config.ts';
import type { db } from '@/lib/db/client.ts';
import { materialize, removeScratch, scratchFile } from '@/lib/spacedb/history.ts';
import type { ApiProcess } from '../process-server.ts';

/** The node's current generation of the space's file (older ones are unlinked as they are replaced). */
export function cacheFileOf(node: ApiProcess, spaceId: string): string {
  const folder = path.join(config.dataDir, 'spacedb', `cache-${node.pid}`);
  const names = fs.readdirSync(folder).filter((entry) => entry.startsWith(`${spaceId}.`) && entry.endsWith('.sqlite'));
  if (names.length !== 1) throw new Error(`${node.origin} has ${names.length} files of ${spaceId}: ${names.join(', ')}`);
  return path.join(folder, names[0]);
}

/** PRAGMA quick_check of a file: 'ok', or what SQLite found wrong. */
export function quickCheck(file: string): string {
  const check = new DatabaseSync(file, { readOnly: true });
  try {
    return String((check.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check);
  } finally {
    check.close();
  }
}

/** The head state replayed from the history alone (in the database `client` reads). */
export async function replayed(client: typeof db, spaceId: string): Promise<Buffer> {
  const head = (await client.spaceDatabase.findUniqueOrThrow({ where: { spaceId } })).headSeq;
  const scratch = scratchFile();
  try {
    await materialize((text, values = []) => client.$queryRawUnsafe(text, ...values), spaceId, head, scratch, null);
    return fs.readFileSync(scratch);
  } finally {
    removeScratch(scratch);
  }
}
