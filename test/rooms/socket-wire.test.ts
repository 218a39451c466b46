// The socket contract on the wire: bare WebSockets (raw-client.ts) to a room
// and a live space are driven through every message the server sends, and
// each stateless message received is validated with Ajv against its channel's
// message in the AsyncAPI document served as /asyncapi.json, as
// @asyncapi/parser reads it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Parser } from '@asyncapi/parser';
import Ajv, { type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { asyncApiDocument } from '@/server/http/asyncapi.ts';
import { MAX_CHAT_CHARS, serverMessages } from '@/lib/schemas/socket.ts';
import { createRealtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import { multipartFile, ROOM_PREFIX, World, type Person, type RoomKind } from '../http/world.ts';
import { openRaw, type RawClient } from './raw-client.ts';
import { ticketUrl, waitFor } from './socket-helpers.ts';

// An OpenAI-compatible stand-in, so that a room can answer ai.suggestion.
const standIn = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'A suggested sentence.' } }] }));
});
const realtime = createRealtime({ debounceMs: 200, maxDebounceMs: 1000, recheckMs: 60_000 });
const server = createFrontServer({ upgrades: realtime.handleUpgrade });
const savedAi = config.ai;
const clients: RawClient[] = [];
let w: World;
const CHANNEL: Record<RoomKind, string> = { room: 'room', live: 'liveSpace' };
/** Per channel: a validator for each message the server may send on it, by kind. */
const validators: Record<string, Map<string, ValidateFunction>> = {};

beforeAll(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  w = await new World(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'wire').build();
  config.ai = { baseUrl: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', model: 'stand-in' };
  await w.must(200, 'PATCH', `/v1/rooms/${w.rooms.room}`, { as: w.people.owner, body: { aiSuggest: true } });

  const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncApiDocument(w.origin)));
  if (!document) throw new Error(`asyncapi.json does not parse: ${JSON.stringify(diagnostics)}`);
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const operation of document.operations().all()) {
    if (operation.action() !== 'send') continue;
    for (const channel of operation.channels().all()) {
      const byKind = (validators[channel.id()] ??= new Map());
      for (const message of operation.messages().all()) {
        // The parser answers the multi-format payload object: the JSON Schema is its `schema`.
        const { schema } = message.payload()!.json() as { schema: { type: string } };
        if (schema?.type !== 'object') throw new Error(`${message.name()} has no JSON Schema payload`);
        byKind.set(message.name()!, ajv.compile(schema));
      }
    }
  }
}, 60_000);

afterAll(async () => {
  config.ai = savedAi;
  for (const client of clients) client.close();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => standIn.close(resolve));
});

async function raw(person: Person, kind: RoomKind) {
  const client = await openRaw(await ticketUrl(w, person, w.rooms[kind], ROOM_PREFIX[kind]), w.rooms[kind]);
  clients.push(client);
  await waitFor('hello', () => client.messages.find((m) => m.kind === 'hello'));
  return client;
}

/** Every message `clients` received that its channel's schema refuses, with Ajv's reasons. */
function misfits(kind: RoomKind, received: RawClient[]) {
  const channel = validators[CHANNEL[kind]];
  return received.flatMap((client) =>
    client.messages.flatMap((message) => {
      const validate = channel.get(message.kind);
      if (!validate) return [{ kind: message.kind, errors: `not a message of the ${CHANNEL[kind]} channel` }];
      return validate(message) ? [] : [{ kind: message.kind, errors: JSON.stringify(validate.errors) }];
    }),
  );
}

const kindsOf = (received: RawClient[]) => new Set(received.flatMap((client) => client.messages.map((m) => m.kind as string)));

describe.each(['room', 'live'] as const)('what a %s socket sends', (kind) => {
  it('fits the AsyncAPI document, message by message, for every kind the channel has', async () => {
    const prefix = `/v1/${ROOM_PREFIX[kind]}/${w.rooms[kind]}`;
    const owner = await raw(w.people.owner, kind);
    const guest = await w.roomGuest(kind);
    const viewer = await raw(guest, kind);
    const received = [owner, viewer];

    owner.say('on the wire');
    const posted = await waitFor('chat.message', () => viewer.messages.find((m) => m.kind === 'chat.message' && m.message.body === 'on the wire'));
    owner.say('');
    owner.say('x'.repeat(MAX_CHAT_CHARS + 1));
    await waitFor('two chat.errors', () => owner.messages.filter((m) => m.kind === 'chat.error').length === 2);
    owner.sendStateless('not json');
    await waitFor('error', () => owner.messages.find((m) => m.kind === 'error'));
    const pageId = String(owner.doc.getArray<any>('pages').get(0).get('id'));
    owner.sendStateless(JSON.stringify({ kind: 'ai.suggest', id: 'a1', pageId, cursorContext: 'The plan is' }));
    await waitFor('the answer to ai.suggest', () => owner.messages.find((m) => m.id === 'a1' && m.kind.startsWith('ai.')));
    viewer.sendStateless(JSON.stringify({ kind: 'ai.suggest', id: 'a2', pageId }));
    await waitFor('ai.error', () => viewer.messages.find((m) => m.kind === 'ai.error' && m.id === 'a2'));

    await w.must(204, 'DELETE', `${prefix}/messages/${posted.message.id}`, { as: w.people.owner });
    await waitFor('chat.deleted', () => owner.messages.find((m) => m.kind === 'chat.deleted'));
    const { body, type } = multipartFile('wire.txt', 'text/plain', 'a source');
    await w.must(200, 'POST', `${prefix}/sources`, { as: w.people.owner, raw: body, headers: { 'content-type': type } });
    await waitFor('changed', () => owner.messages.find((m) => m.kind === 'changed'));
    await w.must(204, 'PATCH', `${prefix}/people/${guest.handle}`, { as: w.people.owner, body: { role: 'commenter' } });
    await waitFor('access', () => viewer.messages.find((m) => m.kind === 'access'));
    await w.must(204, 'DELETE', `${prefix}/people/${guest.handle}`, { as: w.people.owner });
    await waitFor('access.revoked', () => viewer.messages.find((m) => m.kind === 'access.revoked'));

    // Another Auth while the document is open is not the 4400 misuse: nothing changes.
    owner.authenticate();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([owner.isOpen(), owner.scopes]).toEqual([true, ['read-write']]);

    expect(misfits(kind, received)).toEqual([]);
    // Every kind the channel declares was seen and checked: a room can answer a suggestion, a live space cannot.
    expect([...kindsOf(received)].sort()).toEqual([...validators[CHANNEL[kind]].keys()].sort());
    expect(kindsOf(received).has('ai.suggestion')).toBe(kind === 'room');
  });
});

it('declares every server message on the room channel', () => {
  expect([...validators.room.keys()].sort()).toEqual(Object.keys(serverMessages).sort());
});
