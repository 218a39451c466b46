// A page restore is atomic: the server is SIGKILLed while it restores a long
// page: inside the restore's transaction, the moment any of its effects shows
// (a restore written in two steps fails here), and a while after it began.
// Afterwards the page reads (from the
// stored document and the log, as every reader does) exactly as it was before
// or exactly as restored, never in between, and the snapshot of the page as
// it was exists only if the restore happened. Restoring again completes.
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import { appendRoomUpdates, currentRoomState } from '@/lib/rooms/document-store.ts';
import { pageMarkdown, pagesOf, setPageContent } from '@/lib/rooms/document.ts';
import { devLogin, request, useApiServers } from '../process-server.ts';
import { killInTransaction, useSql } from './helpers.ts';

const servers = useApiServers();
const sql = useSql();

// Paragraphs of the long version: enough to make the restore's transaction long enough to be caught in.
const PARAGRAPHS = 4000;
const paragraphs = (from: number, to: number, tag: string) =>
  Array.from({ length: to - from }, (_, i) => ({ type: 'paragraph', content: [{ type: 'text', text: `${tag} paragraph ${from + i}` }] }));

async function document(roomId: string) {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, (await currentRoomState(roomId))!);
  return doc;
}

/** Makes the page hold `content` by appending one update to the room's log, as an editor's socket would. */
async function write(roomId: string, pageId: string, content: object[]) {
  const doc = await document(roomId);
  const vector = Y.encodeStateVector(doc);
  setPageContent(doc, pageId, { type: 'doc', content });
  await appendRoomUpdates([{ roomId, update: Y.encodeStateAsUpdate(doc, vector) }]);
  doc.destroy();
}

async function markdownOf(roomId: string, pageId: string) {
  const doc = await document(roomId);
  const text = pageMarkdown(doc, pageId);
  doc.destroy();
  return text;
}

it('leaves a page as before or as restored when the server is killed mid-restore', { timeout: 240_000 }, async () => {
  let server = await servers.start();
  const owner = await devLogin(server.origin, 'restorer');
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await request(server.origin, method, path, { token: owner.token, body });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json;
  };
  const roomId = (await call('POST', '/v1/rooms', { workspace: 'restorer', name: 'Long' })).id as string;
  const doc = await document(roomId);
  const pageId = pagesOf(doc)[0].id;
  doc.destroy();
  const base = `/v1/rooms/${roomId}/pages/${pageId}/history`;

  // The whole page, kept under a name; then half of it deleted and something else written.
  await write(roomId, pageId, paragraphs(0, PARAGRAPHS, 'kept'));
  const whole = await markdownOf(roomId, pageId);
  const kept = await call('POST', base, { name: 'Whole' });
  await write(roomId, pageId, [...paragraphs(0, PARAGRAPHS / 2, 'kept'), ...paragraphs(0, 10, 'new')]);
  const half = await markdownOf(roomId, pageId);
  expect(half).not.toBe(whole);

  let landed = 0;
  const befores = async () => Number((await sql.query(`SELECT count(*) AS n FROM "RoomPageSnapshot" WHERE "roomId" = $1 AND reason = 'restore'`, [roomId]))[0].n);
  // Killed inside the restore's transaction; the moment any of its effects is visible (a restore
  // written in two steps is caught between them); and a while after it began.
  for (const when of ['in transaction', 'first effect', 'after 150 ms'] as const) {
    const restore = request(server.origin, 'POST', `${base}/${kept.id}/restore`, { token: owner.token });
    let finished = false;
    void restore.finally(() => (finished = true)).catch(() => {});
    let killed: boolean;
    if (when === 'in transaction') killed = await killInTransaction(server, restore);
    else {
      if (when === 'first effect') while (!finished && (await befores()) === 0 && (await markdownOf(roomId, pageId)) === half);
      else await new Promise((resolve) => setTimeout(resolve, 150));
      killed = !finished;
      if (killed) await server.kill('SIGKILL');
    }
    await restore.catch(() => {});
    const now = await markdownOf(roomId, pageId);
    if (killed) {
      landed++;
      // All or nothing: the page and the record of what it was before.
      expect([whole, half], when).toContain(now);
      expect(await befores(), when).toBe(now === whole ? 1 : 0);
      server = await servers.start();
    } else {
      expect(now).toBe(whole);
    }
    if (now === whole) {
      // Restored: undo it (its `before` snapshot) for the next round, from the half page again.
      await sql.query(`DELETE FROM "RoomPageSnapshot" WHERE "roomId" = $1 AND reason = 'restore'`, [roomId]);
      await write(roomId, pageId, [...paragraphs(0, PARAGRAPHS / 2, 'kept'), ...paragraphs(0, 10, 'new')]);
      expect(await markdownOf(roomId, pageId)).toBe(half);
    }
  }
  expect(landed, 'kills before the restore finished').toBeGreaterThan(0);

  // Restoring again completes.
  await call('POST', `${base}/${kept.id}/restore`);
  expect(await markdownOf(roomId, pageId)).toBe(whole);
});
