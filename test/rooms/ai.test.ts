// AI suggestions and prompt drafts against a local OpenAI-compatible stand-in
// (node:http answering /chat/completions and recording every request): who
// gets suggestions, who is refused without anything leaving the server, that
// sources hidden from AI never reach the service, the per-person rate, the
// bounds on what is sent, and drafting a room's first page from its prompt
// with the quoted prompt alone as the fallback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFrontServer } from '@/server/index.ts';
import { createRealtime } from '@/realtime/server.ts';
import { config } from '@/lib/config.ts';
import { complete, MAX_INPUT_CHARS, MAX_OUTPUT_CHARS } from '@/lib/ai/client.ts';
import { markdownBlocks } from '@/lib/rooms/ai.ts';
import { multipartFile, World, type Person } from '../http/world.ts';
import { connect, ticketUrl, waitFor, type Client } from './socket-helpers.ts';

type Seen = { path: string; authorization: string | undefined; body: { model: string; messages: { role: string; content: string }[]; max_tokens: number } };

const KEY = 'sk-test-secret-key';
const seen: Seen[] = [];
let answer: (req: Seen) => { status: number; body: unknown; delayMs?: number } = () => ({ status: 200, body: reply('A suggested sentence.') });
const reply = (content: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content } }] });

const standIn = createServer(async (request: IncomingMessage, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const req: Seen = { path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
  seen.push(req);
  const { status, body, delayMs } = request.url === '/v1/chat/completions' ? answer(req) : { status: 404, body: { error: 'no' } };
  if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
});

const realtime = createRealtime({ debounceMs: 200, maxDebounceMs: 1000, recheckMs: 500 });
const server = createFrontServer({ upgrades: realtime.handleUpgrade });
const savedAi = config.ai;
let aiOn: NonNullable<typeof config.ai>;
let w: World;
let room: string;
const clients: Client[] = [];

async function open(person: 'owner' | 'admin' | 'member' | 'viewer' | Person, roomId = room, prefix = 'rooms') {
  const who = typeof person === 'string' ? w.people[person] : person;
  const client = await connect(await ticketUrl(w, who, roomId, prefix), roomId);
  clients.push(client);
  return client;
}

const firstPage = (c: Client) => String(c.doc.getArray<any>('pages').get(0).get('id'));
let asked = 0;
/** Sends ai.suggest and waits for its answer (ai.suggestion or ai.error). */
async function suggest(c: Client, cursorContext = 'The plan is') {
  const id = `s${++asked}`;
  c.provider.sendStateless(JSON.stringify({ kind: 'ai.suggest', id, pageId: firstPage(c), cursorContext }));
  return waitFor(`the answer to ${id}`, () => c.messages.find((m) => (m.kind === 'ai.suggestion' || m.kind === 'ai.error') && m.id === id));
}

beforeAll(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  aiOn = { baseUrl: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`, apiKey: KEY, model: 'stand-in-model' };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  w = await new World(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'ai').build();
  room = w.rooms.room;
  await w.must(200, 'PATCH', `/v1/rooms/${room}`, { as: w.people.owner, body: { aiSuggest: true } });
}, 60_000);

beforeEach(() => {
  config.ai = aiOn;
  seen.length = 0;
  answer = () => ({ status: 200, body: reply('A suggested sentence.') });
});

afterAll(async () => {
  config.ai = savedAi;
  for (const c of clients) c.destroy();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

describe('AI suggestions over the room socket', () => {
  it('answers an editor with a suggestion built from the page, the sources and the cursor, sent with the key and model', async () => {
    const member = await open('member');
    expect(member.messages.find((m) => m.kind === 'hello')).toMatchObject({ ai: true, caps: { edit: true } });
    const got = await suggest(member, 'Our first decision was');
    expect(got).toMatchObject({ kind: 'ai.suggestion', pageId: firstPage(member), text: 'A suggested sentence.' });
    expect(seen).toHaveLength(1);
    expect(seen[0].authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0].body.model).toBe('stand-in-model');
    const sent = seen[0].body.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('Meeting notes'); // the page (the notes template)
    expect(sent).toContain('Our first decision was');
    expect(sent).toMatch(/notes 0\.\d+/); // the fixture's source text
    // Only the socket that asked hears the answer.
    const other = await open('admin');
    await suggest(member);
    await new Promise((r) => setTimeout(r, 200));
    expect(other.messages.some((m) => m.kind === 'ai.suggestion')).toBe(false);
  });

  it('never sends a source hidden from AI', async () => {
    const upload = async (text: string) => {
      const { body, type } = multipartFile('s.txt', 'text/plain', text);
      return (await w.must(200, 'POST', `/v1/rooms/${room}/sources`, { as: w.people.owner, raw: body, headers: { 'content-type': type } })).id as string;
    };
    const hidden = await upload('TOP-SECRET-SALARIES do not share');
    await w.must(200, 'PATCH', `/v1/rooms/${room}/sources/${hidden}`, { as: w.people.owner, body: { hiddenFromAi: true } });
    await upload('VISIBLE-REFERENCE notes');
    const member = await open('member');
    expect((await suggest(member)).kind).toBe('ai.suggestion');
    const sent = JSON.stringify(seen.map((s) => s.body));
    expect(sent).toContain('VISIBLE-REFERENCE');
    expect(sent).not.toContain('TOP-SECRET-SALARIES');
  });

  it('refuses commenters, viewers, rooms with aiSuggest off, live spaces and servers without AI, sending nothing out', async () => {
    const commenter = await open('viewer'); // a workspace viewer comments in rooms
    expect((await suggest(commenter)).message).toMatch(/^AI suggestions are off for your role/);
    const guest = await open(await w.roomGuest('room'));
    expect((await suggest(guest)).message).toMatch(/^AI suggestions are off for your role/);

    const off = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'No AI here' } });
    const inOff = await open('member', off.id);
    expect((await suggest(inOff)).message).toMatch(/^AI suggestions are off in this room/);

    const live = await open('member', w.rooms.live, 'live-spaces');
    // Live spaces never mention AI: not in hello, and a request is refused.
    expect(live.messages.find((m) => m.kind === 'hello')).not.toHaveProperty('ai');
    expect((await suggest(live)).message).toMatch(/^AI suggestions are off in live spaces/);

    config.ai = null;
    const unconfigured = await open('member');
    expect(unconfigured.messages.find((m) => m.kind === 'hello')).toMatchObject({ ai: false });
    expect((await suggest(unconfigured)).message).toMatch(/^AI suggestions are off on this server/);
    expect(seen).toHaveLength(0);
  });

  it('limits each person to 20 suggestions a minute', async () => {
    const person = (await w.fresh('member'))!;
    const c = await open(person);
    for (let i = 0; i < 20; i++) expect((await suggest(c)).kind).toBe('ai.suggestion');
    const over = await suggest(c);
    expect(over).toMatchObject({ kind: 'ai.error' });
    expect(over.message).toMatch(/Too many AI suggestions/);
    expect(seen).toHaveLength(20);
    // Someone else is not held back.
    expect((await suggest(await open('admin'))).kind).toBe('ai.suggestion');
  });

  it('reports a failing service as ai.error without the key', async () => {
    answer = () => ({ status: 401, body: { error: { message: `bad key ${KEY}` } } });
    const c = await open('member');
    const got = await suggest(c);
    expect(got.kind).toBe('ai.error');
    expect(got.message).toMatch(/AI_API_KEY/);
    expect(got.message).not.toContain(KEY);
  });
});

describe('the AI client', () => {
  it('caps what it sends and what it keeps', async () => {
    answer = () => ({ status: 200, body: reply('y'.repeat(MAX_OUTPUT_CHARS * 3)) });
    const text = await complete({ system: 'sys', user: 'x'.repeat(50_000) });
    expect(text).toHaveLength(MAX_OUTPUT_CHARS);
    const sent = seen[0].body.messages.reduce((n, m) => n + m.content.length, 0);
    expect(sent).toBeLessThanOrEqual(MAX_INPUT_CHARS);
    expect(sent).toBeGreaterThan(MAX_INPUT_CHARS - 10);
  });

  it('gives up after its timeout with a clear error', async () => {
    answer = () => ({ status: 200, body: reply('late'), delayMs: 1500 });
    await expect(complete({ system: 's', user: 'u', timeoutMs: 200 })).rejects.toThrow(/did not answer within/);
  });
});

describe('prompt on POST /v1/rooms', () => {
  const create = (prompt: string) => w.must(200, 'POST', '/v1/rooms', { as: w.people.member, body: { workspace: w.slug, prompt } });
  const markdown = async (id: string) => (await w.call('GET', `/v1/rooms/${id}/markdown`, { as: w.people.member })).text;

  it('drafts the first page with AI on, under the quoted prompt', async () => {
    answer = () => ({ status: 200, body: reply('# Launch plan\n\n- Pick a date\n- Invite the press\n\nWe start small.') });
    const created = await create('Plan the product launch');
    expect(seen).toHaveLength(1);
    expect(seen[0].body.messages.at(-1)!.content).toBe('Plan the product launch');
    expect(await markdown(created.id)).toBe('# Plan the product launch\n\n## Page 1\n\n> Plan the product launch\n\n# Launch plan\n\n* Pick a date\n\n* Invite the press\n\nWe start small.\n');
  });

  it('quotes the prompt alone when AI is off (nothing sent) or fails', async () => {
    config.ai = null;
    const off = await create('Plan the offsite');
    expect(seen).toHaveLength(0);
    expect(await markdown(off.id)).toBe('# Plan the offsite\n\n## Page 1\n\n> Plan the offsite\n');

    config.ai = aiOn;
    answer = () => ({ status: 500, body: { error: 'down' } });
    const failed = await create('Plan the offsite');
    expect(seen).toHaveLength(1);
    expect(await markdown(failed.id)).toBe('# Plan the offsite\n\n## Page 1\n\n> Plan the offsite\n');
  });

  it('never drafts for live spaces', async () => {
    const live = await w.must(200, 'POST', '/v1/live-spaces', { as: w.people.member, body: { workspace: w.slug, prompt: 'A live page' } });
    expect(live.id).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('reads headings, lists and paragraphs of a draft', () => {
    expect(markdownBlocks('## Goals\n- one\n- two\n\nline a\nline b')).toEqual([
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Goals' }] },
      { type: 'bulletList', content: ['one', 'two'].map((t) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: t }] }] })) },
      { type: 'paragraph', content: [{ type: 'text', text: 'line a line b' }] },
    ]);
  });
});
