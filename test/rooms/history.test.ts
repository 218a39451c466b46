// Page history end to end: snapshots recorded by a realtime node (a first one
// at load, one with its editors when the last socket leaves), named ones, the
// Markdown diff, and a restore that connected clients receive at once,
// through a room and a live space; the line diff on its own; thinning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { db } from '@/lib/db/client.ts';
import { newId } from '@/lib/ids.ts';
import { lineDiff } from '@/lib/core/line-diff.ts';
import { HISTORY_MS, recordEditSnapshots } from '@/lib/rooms/history.ts';
import { createRealtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import * as Y from 'yjs';
import { ROOM_PREFIX, World, type RoomKind } from '../http/world.ts';
import { connect, ticketUrl, waitFor, type Client } from './socket-helpers.ts';

const realtime = createRealtime({ debounceMs: 100, maxDebounceMs: 500, recheckMs: 500 });
const server = createFrontServer({ upgrades: realtime.handleUpgrade });
let w: World;
const clients: Client[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  w = await new World(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'hist').build();
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function open(kind: RoomKind, roomId: string, person = w.people.owner) {
  const client = await connect(await ticketUrl(w, person, roomId, ROOM_PREFIX[kind]), roomId);
  clients.push(client);
  return client;
}

const history = async (kind: RoomKind, roomId: string, pageId: string) =>
  (await w.must(200, 'GET', `/v1/${ROOM_PREFIX[kind]}/${roomId}/pages/${pageId}/history`, { as: w.people.viewer })).snapshots as any[];

describe.each(['room', 'live'] as const)('page history of a %s', (kind) => {
  const prefix = ROOM_PREFIX[kind];
  it('records, names, compares and restores, and connected clients see the restore at once', async () => {
    const roomId = (await w.must(200, 'POST', `/v1/${prefix}`, { as: w.people.owner, body: { workspace: w.slug, name: 'History' } })).id as string;
    const a = await open(kind, roomId);
    const pageId = a.doc.getArray<Y.Map<string>>('pages').get(0).get('id')!;
    // The page as it was before anyone's edit: recorded when the node loads the room.
    const [initial] = await waitForHistory(kind, roomId, pageId, (list) => list.length > 0);
    expect(initial).toMatchObject({ pageId, reason: 'edits', editors: [] });

    // The member (an editor) writes, then leaves: the node records the page with its editor.
    const b = await open(kind, roomId, w.people.member);
    for (let i = 0; i < 6; i++) b.write(`line ${i} by the member`);
    await waitFor('the edits to reach the owner', () => a.text().includes('line 5 by the member'));
    b.destroy();
    a.destroy();
    const afterEdits = await waitForHistory(kind, roomId, pageId, (list) => list.length >= 2);
    expect(afterEdits[0].editors.map((u: any) => u.handle)).toEqual([w.people.member.handle]);

    // A named snapshot of the page now; viewers (commenters) may read history but not name or restore.
    const named = await w.must(201, 'POST', `/v1/${prefix}/${roomId}/pages/${pageId}/history`, { as: w.people.member, body: { name: 'Six lines' } });
    expect(named).toMatchObject({ reason: 'named', name: 'Six lines', createdBy: { handle: w.people.member.handle } });
    expect((await w.call('POST', `/v1/${prefix}/${roomId}/pages/${pageId}/history`, { as: w.people.viewer, body: { name: 'x' } })).status).toBe(403);
    expect((await w.call('POST', `/v1/${prefix}/${roomId}/pages/${pageId}/history/${initial.id}/restore`, { as: w.people.viewer })).status).toBe(403);
    // Those who cannot see the room learn nothing of it.
    expect((await w.call('GET', `/v1/${prefix}/${roomId}/pages/${pageId}/history`, { as: w.people.outsider })).status).toBe(404);
    expect((await w.call('GET', `/v1/${prefix}/${roomId}/pages/${pageId}/history/diff`, { as: w.people.outsider, query: { from: initial.id } })).status).toBe(404);

    const diff = await w.must(200, 'GET', `/v1/${prefix}/${roomId}/pages/${pageId}/history/diff`, { as: w.people.viewer, query: { from: initial.id, to: named.id } });
    // Six paragraphs (each with the blank line between them, not counted).
    expect(diff.added).toBe(6);
    expect(diff.lines.filter((l: any) => l.op === 'add' && l.text.includes('by the member'))).toHaveLength(6);
    expect(diff.removed).toBe(0);
    // `to` defaults to the page now.
    expect((await w.must(200, 'GET', `/v1/${prefix}/${roomId}/pages/${pageId}/history/diff`, { as: w.people.viewer, query: { from: named.id } })).added).toBe(0);

    // Two people connected; the owner restores the first version: both see it without reconnecting.
    const c = await open(kind, roomId);
    const d = await open(kind, roomId, w.people.member);
    expect(d.text()).toContain('line 3 by the member');
    const restored = await w.must(200, 'POST', `/v1/${prefix}/${roomId}/pages/${pageId}/history/${initial.id}/restore`, { as: w.people.owner });
    expect(restored.restored.id).toBe(initial.id);
    expect(restored.before).toMatchObject({ reason: 'restore', createdBy: { handle: w.people.owner.handle } });
    for (const client of [c, d]) await waitFor('the restore to reach a connected client', () => !client.text().includes('by the member'));
    expect(c.closed).toBeNull();
    expect(d.closed).toBeNull();
    const markdown = await w.call('GET', `/v1/${prefix}/${roomId}/markdown`, { as: w.people.owner });
    expect(markdown.status).toBe(200);
    expect(markdown.text).not.toContain('by the member');

    // A restore is a change like any other: typing goes on, and restoring `before` undoes it.
    d.write('after the restore');
    await waitFor('a new edit to reach the owner', () => c.text().includes('after the restore'));
    await w.must(200, 'POST', `/v1/${prefix}/${roomId}/pages/${pageId}/history/${restored.before.id}/restore`, { as: w.people.owner });
    await waitFor('the undo to reach the owner', () => c.text().includes('line 5 by the member'));
    const list = await history(kind, roomId, pageId);
    expect(list.filter((s) => s.reason === 'restore')).toHaveLength(2);
  }, 60_000);

  it('refuses what is not there', async () => {
    const roomId = w.rooms[kind];
    const { pageId, snapshotId } = await w.roomSnapshot(kind);
    const base = `/v1/${prefix}/${roomId}/pages/${pageId}/history`;
    expect((await w.call('POST', `${base}/sps_nothing/restore`, { as: w.people.owner })).status).toBe(404);
    expect((await w.call('GET', `${base}/diff`, { as: w.people.owner, query: { from: 'nothing' } })).status).toBe(404);
    // A snapshot of one page is not one of another page, nor of another room.
    expect((await w.call('POST', `/v1/${prefix}/${roomId}/pages/other/history/${snapshotId}/restore`, { as: w.people.owner })).status).toBe(404);
    const other = (await w.must(200, 'POST', `/v1/${prefix}`, { as: w.people.owner, body: { workspace: w.slug } })).id;
    expect((await w.call('POST', `/v1/${prefix}/${other}/pages/${pageId}/history/${snapshotId}/restore`, { as: w.people.owner })).status).toBe(404);
    // Naming a page the document does not hold; a name too long; a malformed page id.
    const unknown = await w.call('POST', `/v1/${prefix}/${roomId}/pages/nopage/history`, { as: w.people.owner, body: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('nopage');
    expect((await w.call('POST', base, { as: w.people.owner, body: { name: 'x'.repeat(101) } })).status).toBe(400);
    expect((await w.call('GET', `/v1/${prefix}/${roomId}/pages/${encodeURIComponent('a b')}/history`, { as: w.people.owner })).status).toBe(400);
    // A room of the other kind under this prefix is 404.
    expect((await w.call('GET', `/v1/${prefix}/${w.rooms[kind === 'room' ? 'live' : 'room']}/pages/${pageId}/history`, { as: w.people.owner })).status).toBe(404);
  });
});

async function waitForHistory(kind: RoomKind, roomId: string, pageId: string, check: (list: any[]) => boolean, timeoutMs = 8000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await history(kind, roomId, pageId);
    if (check(list)) return list;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for the history: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('line diff', () => {
  const apply = (lines: ReturnType<typeof lineDiff>, side: 'before' | 'after') =>
    lines.filter((l) => l.op === 'same' || l.op === (side === 'before' ? 'remove' : 'add')).map((l) => l.text).join('\n');

  it('gives back both texts, and no more changes than lines differ', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: 1 + random(30) }, () => `l${random(8)}`);
      let removed = 0;
      let inserted = 0;
      const b = a.flatMap((line) => (random(4) === 0 ? (removed++, []) : random(5) === 0 ? (inserted++, [line, `n${random(8)}`]) : [line]));
      const lines = lineDiff(a.join('\n'), b.join('\n'));
      expect(apply(lines, 'before')).toBe(a.join('\n'));
      expect(apply(lines, 'after')).toBe(b.join('\n'));
      // b is a with lines removed and inserted: a shortest diff has no more changes than that
      // (one more when b is empty: '' is one empty line).
      expect(lines.filter((l) => l.op === 'remove').length).toBeLessThanOrEqual(removed + 1);
      expect(lines.filter((l) => l.op === 'add').length).toBeLessThanOrEqual(inserted + 1);
    }
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'remove', text: 'b' },
      { op: 'add', text: 'x' },
      { op: 'same', text: 'c' },
    ]);
  });

  it('stays correct past its budget of differences (two unrelated long pages)', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const lines = lineDiff(a, b);
    expect(apply(lines, 'before')).toBe(a);
    expect(apply(lines, 'after')).toBe(b);
  });
});

describe('thinning', () => {
  it('keeps 30 days whole and one snapshot per page and week before, a named one first', async () => {
    const roomId = w.rooms.room;
    const pageId = `thin${Date.now()}`;
    const day = 24 * 3600_000;
    // Six weeks back: three snapshots a day for 42 days, one of them named on day 40.
    const rows = [];
    for (let d = 1; d <= 42; d++)
      for (let h = 0; h < 3; h++) rows.push({ createdAt: new Date(Date.now() - d * day - h * 3600_000), reason: d === 40 && h === 2 ? ('named' as const) : ('edits' as const) });
    await db.roomPageSnapshot.createMany({
      data: rows.map((row) => ({ id: newId('roomSnapshot'), roomId, pageId, title: 't', content: {}, markdown: String(row.createdAt.getTime()), editorIds: [], ...row })),
    });
    // Pruning runs whenever a page's snapshot is recorded: record one of this page (empty, but changed).
    const doc = new Y.Doc();
    const page = new Y.Map<string>();
    doc.getArray('pages').push([page]);
    page.set('id', pageId);
    page.set('title', 't');
    await recordEditSnapshots(roomId, doc, new Map([[pageId, new Set<string>()]]), true);
    const kept = await db.roomPageSnapshot.findMany({ where: { roomId, pageId }, select: { createdAt: true, reason: true } });
    const cutoff = Date.now() - HISTORY_MS;
    const recent = kept.filter((s) => s.createdAt.getTime() >= cutoff);
    const old = kept.filter((s) => s.createdAt.getTime() < cutoff);
    // Everything of the last 30 days (and the new one) stays.
    expect(recent.length).toBe(rows.filter((r) => r.createdAt.getTime() >= cutoff).length + 1);
    // Before: one per week, and the named one won its week.
    const weeks = new Set(old.map((s) => Math.floor((s.createdAt.getTime() / day + 3) / 7)));
    expect(old.length).toBe(weeks.size);
    expect(old.length).toBeLessThanOrEqual(3);
    expect(old.some((s) => s.reason === 'named')).toBe(true);
  });
});
