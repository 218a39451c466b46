// The socket contract for client authors, generated from lib/schemas/socket.ts
// as /openapi.json is from the route table: the AsyncAPI 3.0 document served at
// /asyncapi.json, and the message tables of docs/realtime.md (a test fails
// when that file drifts from them; `node scripts/socket-docs.ts` rewrites it).
import { z } from 'zod';
import { config } from '../../lib/config.ts';
import { clientMessages, serverMessages, SOCKET_CLOSE_CODES } from '../../lib/schemas/socket.ts';

type Messages = Record<string, z.ZodObject>;

/** A live space refuses every `ai.suggest` (with `ai.error`), so it never sends a suggestion. */
const LIVE_SPACE_SKIPS = new Set(['ai.suggestion']);

/** `chat.send` → `ChatSend`. */
const messageId = (kind: string) => kind.replace(/(^|[.-])(\w)/g, (_, __, c: string) => c.toUpperCase());

const descriptionOf = (schema: z.ZodType) => (schema.meta() as { description?: string } | undefined)?.description ?? '';

/** `{ kind, body, id? }`: the payload's fields, optional ones marked. */
export function payloadShape(schema: z.ZodObject): string {
  const fields = Object.entries(schema.shape).map(([key, field]) => ((field as z.ZodType).safeParse(undefined).success ? `${key}?` : key));
  return `{ ${fields.join(', ')} }`;
}

function table(messages: Messages): string {
  const rows = Object.entries(messages).map(([kind, schema]) => `| \`${kind}\` | \`${payloadShape(schema)}\` | ${descriptionOf(schema)} |`);
  return ['| kind | payload | |', '|---|---|---|', ...rows].join('\n');
}

/** The generated part of docs/realtime.md: both message tables and the close codes. */
export function socketMessageTables(): string {
  const codes = Object.entries(SOCKET_CLOSE_CODES).map(([code, meaning]) => `| ${code} | ${meaning} |`);
  return [
    'From the client:',
    '',
    table(clientMessages),
    '',
    'From the server:',
    '',
    table(serverMessages),
    '',
    'The server ends a socket with these WebSocket close codes:',
    '',
    '| code | meaning |',
    '|---|---|',
    ...codes,
  ].join('\n');
}

/** Each payload as JSON Schema (draft 7), its shared definitions hoisted to components.schemas. */
function payloads(messages: Messages, io: 'input' | 'output', schemas: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(messages).map(([kind, schema]) => {
      const { $schema: _, definitions, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown> & { definitions?: Record<string, unknown> };
      const hoist = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/definitions/', '"#/components/schemas/'));
      for (const [name, definition] of Object.entries(definitions ?? {})) schemas[name] = hoist(definition);
      return [
        messageId(kind),
        {
          name: kind,
          title: kind,
          summary: descriptionOf(schema),
          contentType: 'application/json',
          payload: { schemaFormat: 'application/schema+json;version=draft-07', schema: hoist(json) },
        },
      ];
    }),
  );
}

const cached = new Map<string, object>();

/** The AsyncAPI 3.0 document of both sockets, with `publicUrl` (default REALTIME_URL or PUBLIC_URL) as its server. */
export function asyncApiDocument(publicUrl: string = config.realtimeUrl ?? config.publicUrl): object {
  const known = cached.get(publicUrl);
  if (known) return known;
  const url = new URL(publicUrl);
  const schemas: Record<string, unknown> = {};
  const messages = { ...payloads(clientMessages, 'input', schemas), ...payloads(serverMessages, 'output', schemas) };
  const refs = (kinds: string[], channel: string) => kinds.map((kind) => ({ $ref: `#/channels/${channel}/messages/${messageId(kind)}` }));
  const channel = (address: string, noun: string, skip: Set<string>) => {
    const kinds = [...Object.keys(clientMessages), ...Object.keys(serverMessages)].filter((k) => !skip.has(k));
    return {
      address,
      title: `A ${noun}'s socket`,
      description: `GET ${address}?ticket=… upgrades to a WebSocket speaking the Hocuspocus protocol (Yjs sync, awareness, auth). The messages below are the JSON payloads of its stateless frames. Ask for the ticket with POST ${address.replace(/\/ws$/, '/ticket')} (view needed); it opens one socket, once, within 60 seconds. Close codes: ${Object.entries(SOCKET_CLOSE_CODES)
        .map(([code, meaning]) => `${code}: ${meaning}`)
        .join(' ')}`,
      parameters: { id: { description: `The ${noun}'s id.` } },
      messages: Object.fromEntries(kinds.map((kind) => [messageId(kind), { $ref: `#/components/messages/${messageId(kind)}` }])),
      bindings: {
        ws: {
          method: 'GET',
          query: { type: 'object', properties: { ticket: { type: 'string', description: 'From POST …/ticket: one socket, once, within 60 seconds.' } }, required: ['ticket'] },
        },
      },
    };
  };
  const operations = (name: string, skip: Set<string>) => ({
    [`${name}Receive`]: {
      action: 'receive',
      channel: { $ref: `#/channels/${name}` },
      summary: 'What a client sends.',
      messages: refs(Object.keys(clientMessages).filter((k) => !skip.has(k)), name),
    },
    [`${name}Send`]: {
      action: 'send',
      channel: { $ref: `#/channels/${name}` },
      summary: 'What the server sends.',
      messages: refs(Object.keys(serverMessages).filter((k) => !skip.has(k)), name),
    },
  });
  const document = {
    asyncapi: '3.0.0',
    info: {
      title: 'Atrium room sockets',
      version: '1',
      description: 'The stateless messages of room and live-space sockets. The HTTP API is described by /openapi.json; docs/realtime.md explains the document structure, presence and reconnection.',
      license: { name: 'MIT' },
    },
    servers: {
      atrium: { host: url.host, protocol: url.protocol === 'https:' ? 'wss' : 'ws', description: 'This Atrium server (its realtime nodes).' },
    },
    defaultContentType: 'application/json',
    channels: { room: channel('/v1/rooms/{id}/ws', 'room', new Set()), liveSpace: channel('/v1/live-spaces/{id}/ws', 'live space', LIVE_SPACE_SKIPS) },
    operations: { ...operations('room', new Set()), ...operations('liveSpace', LIVE_SPACE_SKIPS) },
    components: { messages, schemas },
  };
  cached.set(publicUrl, document);
  return document;
}

const START = /<!-- socket-messages: [^\n]*-->\n/;
const END = '<!-- socket-messages:end -->';

/** `markdown` (docs/realtime.md) with its generated part, between the two markers, made anew. */
export function withSocketTables(markdown: string): string {
  const start = START.exec(markdown);
  const end = markdown.indexOf(END);
  if (!start || end < start.index) throw new Error('docs/realtime.md lacks the socket-messages markers');
  return `${markdown.slice(0, start.index + start[0].length)}\n${socketMessageTables()}\n\n${markdown.slice(end)}`;
}
