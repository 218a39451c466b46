// Acknowledged room edits survive a kill -9 of the realtime node: writers
// type paragraphs as fast as the node acknowledges them, the node is killed
// with SIGKILL mid-stream (no flush, no drain), and every edit any writer saw
// acknowledged is found afterwards, by the Markdown export and by a new
// socket on another node.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@/lib/db/embedded-postgres.ts';
import { World } from '../http/world.ts';
import { openRaw, type RawClient } from '../rooms/raw-client.ts';
import { ticketUrl, waitFor } from '../rooms/socket-helpers.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
const children = new Set<ChildProcess>();
let w: World;

async function startNode(): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort();
  // One node alone: no Redis. The store debounce is the default (2 s after typing stops), so at
  // the kill what was typed lately is in memory and in the log only.
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_REQUESTS: 'false', HOST: '127.0.0.1', REALTIME_PORT: String(port) };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../server/realtime-main.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  await waitFor(`the node to start: ${output}`, () => output.includes('realtime ready'), 20_000);
  return { origin: `http://127.0.0.1:${port}`, child };
}

beforeAll(async () => {
  w = await new World(server.origin, 'crr').build();
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('room edits and kill -9', () => {
  it('keeps every acknowledged edit of five writers when the node is killed mid-stream, and serves them from another node', async () => {
    const node = await startNode();
    const room = (await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Crash' } })).id as string;
    const writers: RawClient[] = [];
    for (let i = 0; i < 5; i++) writers.push(await openRaw(await ticketUrl(w, w.people.owner, room, 'rooms', node.origin), room));
    // Synced both ways: the acknowledgement of the writer's own sync reply must not be counted as an edit's.
    for (const writer of writers) await waitFor('the first sync', () => writer.doc.getArray('pages').length > 0 && writer.acked > 0);
    const ackedBefore = writers.map((writer) => writer.acked);
    const sent = writers.map(() => 0);
    let typing = true;
    // Each writer sends a paragraph, waits for its acknowledgement, and goes on; the kill comes in the middle.
    const loops = writers.map(async (writer, i) => {
      while (typing && writer.isOpen()) {
        writer.write(`w${i}-${sent[i]}`);
        sent[i]++;
        const target = ackedBefore[i] + sent[i];
        await waitFor('an acknowledgement', () => writer.acked >= target || !writer.isOpen() || !typing, 5000).catch(() => {});
      }
    });
    await waitFor('some edits', () => writers.every((writer, i) => writer.acked - ackedBefore[i] >= 20), 20_000);
    node.child.kill('SIGKILL');
    typing = false;
    await Promise.all(loops);
    await waitFor('the node to die', () => node.child.signalCode !== null, 5000);
    const acknowledged = writers.map((writer, i) => writer.acked - ackedBefore[i]);
    expect(acknowledged.every((n) => n >= 20)).toBe(true);

    const expectAll = (text: string) => {
      for (const [i, count] of acknowledged.entries()) {
        const missing = Array.from({ length: count }, (_, n) => `w${i}-${n}`).filter((line) => !new RegExp(`(^|\\n|\\s)${line}($|\\n|\\s)`).test(text));
        expect(missing, `writer ${i}: ${count} acknowledged`).toEqual([]);
      }
    };
    // The export reads the stored document and the log, as any reader does.
    const markdown = await w.call('GET', `/v1/rooms/${room}/markdown`, { as: w.people.owner });
    expect(markdown.status).toBe(200);
    expectAll(markdown.text);

    const other = await startNode();
    const reader = await openRaw(await ticketUrl(w, w.people.member, room, 'rooms', other.origin), room);
    await waitFor('the document', () => reader.text().includes('w0-0'));
    expectAll(reader.text());
    reader.close();
  }, 60_000);
});
