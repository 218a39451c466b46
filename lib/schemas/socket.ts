// The socket contract of GET /v1/rooms/{id}/ws and /v1/live-spaces/{id}/ws:
// every stateless message (JSON in a Hocuspocus stateless frame), both ways.
// The realtime server parses what it receives and types what it sends with
// these; the web app reads them; docs/realtime.md's tables and /asyncapi.json
// are generated from them (server/http/asyncapi.ts, scripts/socket-docs.ts).
import { z } from 'zod';
import { roomCaps, roomRole } from './rooms.ts';

/** WebSocket close codes the server ends a socket with. */
export const SOCKET_CLOSE_CODES = {
  4205: 'Reconnect now: this node is stopping. Fetch a fresh ticket and connect again (the load balancer picks another node).',
  4400: 'Protocol misuse: an Auth for another document or after the document was closed on the socket, or an update that does not fit the document model (another type where a page or the page list belongs, an element, mark or attribute value the editor schema does not allow). A socket opens its room once.',
  4403: 'Access lost: removed, the room deleted, or the token the ticket came from revoked. Sent after `access.revoked`. Do not reconnect.',
  1009: 'A frame larger than 2 MiB.',
} as const;

const requestId = z.string().max(100).nullable().optional().meta({ description: 'Any id of the client’s, echoed in the answer.' });
const echoedId = z.string().nullable().meta({ description: 'The `id` of the message answered, or null.' });

export const chatMessage = z
  .object({
    id: z.string(),
    body: z.string(),
    author: z.object({ id: z.string(), handle: z.string(), name: z.string().nullable() }).nullable().meta({ description: 'null once the author deleted their account.' }),
    authorName: z.string().meta({ description: 'What to show: the name, else @handle, else "Deleted user".' }),
    createdAt: z.number().int().meta({ description: 'Milliseconds since the epoch.' }),
  })
  .meta({ id: 'ChatMessage' });

/** The longest chat message, in characters. */
export const MAX_CHAT_CHARS = 4000;

const socketUser = z.object({ id: z.string(), handle: z.string(), name: z.string().nullable() });

/** What a client may send. Anything else is answered with `error`. */
export const clientMessages = {
  'chat.send': z
    .object({
      kind: z.literal('chat.send'),
      id: requestId,
      body: z.string().min(1, 'A message cannot be empty.').max(MAX_CHAT_CHARS, `A message holds at most ${MAX_CHAT_CHARS} characters.`),
    })
    .meta({ description: 'Post a chat message: needs comment; `body` 1–4,000 characters, not only white space; `id` is echoed in a `chat.error`. Everyone in the room (on every node) gets it as `chat.message`.' }),
  'ai.suggest': z
    .object({ kind: z.literal('ai.suggest'), id: requestId, pageId: z.string().min(1).max(100), cursorContext: z.string().max(20_000).optional() })
    .meta({ description: 'Ask for a continuation of a page (in a live space the answer is always an `ai.error` refusal). Needs edit, the room’s `aiSuggest` on and a server with AI; `cursorContext` is the text just before the cursor (the last 1,000 characters are used); `id` is echoed in the answer, which goes to the sender only.' }),
} as const;

export const clientMessage = z.discriminatedUnion('kind', [clientMessages['chat.send'], clientMessages['ai.suggest']]);
export type ClientMessage = z.infer<typeof clientMessage>;

/** What the server sends. */
export const serverMessages = {
  hello: z
    .object({ kind: z.literal('hello'), role: roomRole, caps: roomCaps, user: socketUser, ai: z.boolean().optional().meta({ description: 'Rooms only: whether this server has an AI service.' }) })
    .meta({ description: 'On connect: your role and capabilities, decided by the server from the current state; in rooms, `ai` says whether the server has an AI service (live spaces carry no `ai`).' }),
  'chat.history': z.object({ kind: z.literal('chat.history'), messages: z.array(chatMessage) }).meta({ description: 'On connect: the latest 50 messages, oldest first, without authors you block.' }),
  'chat.message': z.object({ kind: z.literal('chat.message'), message: chatMessage }).meta({ description: 'A message was posted (not sent to those who block its author).' }),
  'chat.deleted': z.object({ kind: z.literal('chat.deleted'), messageId: z.string() }).meta({ description: 'A message was deleted (`DELETE …/messages/{messageId}`).' }),
  'chat.error': z.object({ kind: z.literal('chat.error'), id: echoedId, message: z.string() }).meta({ description: 'Your `chat.send` was refused (viewer, empty, too long, invalid); nothing was stored.' }),
  access: z.object({ kind: z.literal('access'), role: roomRole, caps: roomCaps }).meta({ description: 'Your role changed; the socket becomes read-only or writable.' }),
  'access.revoked': z
    .object({ kind: z.literal('access.revoked'), message: z.string() })
    .meta({ description: 'You lost access (removed, token revoked, room deleted); the server then closes the WebSocket with code 4403.' }),
  changed: z.object({ kind: z.literal('changed'), what: z.enum(['people', 'sources']) }).meta({ description: 'The room’s people (members, invitations) or sources changed: read the list again over the API.' }),
  'ai.suggestion': z.object({ kind: z.literal('ai.suggestion'), id: echoedId, pageId: z.string(), text: z.string() }).meta({ description: 'The answer to your `ai.suggest`, to you only: plain text to insert at the cursor (or not; the server changes nothing).' }),
  'ai.error': z.object({ kind: z.literal('ai.error'), id: echoedId, message: z.string() }).meta({ description: 'Your `ai.suggest` was refused or failed. Refusals start "AI suggestions are off" (no AI service on this server, a live space, your role, or the room’s `aiSuggest` off) and then nothing was sent to the AI service; also "Too many AI suggestions…" past 20 a minute per person.' }),
  error: z.object({ kind: z.literal('error'), message: z.string() }).meta({ description: 'A stateless message the server could not read (not JSON, or an unknown kind).' }),
} as const;

export const serverMessage = z.discriminatedUnion('kind', Object.values(serverMessages) as [typeof serverMessages.hello, ...(typeof serverMessages)[keyof typeof serverMessages][]]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type ServerMessageOf<K extends ServerMessage['kind']> = Extract<ServerMessage, { kind: K }>;
export type SocketChatMessage = z.infer<typeof chatMessage>;

/** Reads a client's stateless payload: the message, or what is wrong with it (and its kind when that is known). */
export function parseClientMessage(payload: string): { ok: true; message: ClientMessage } | { ok: false; error: string; id: string | null; kind?: ClientMessage['kind'] } {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { ok: false, error: 'Stateless messages are JSON.', id: null };
  }
  const kind = (json as { kind?: unknown } | null)?.kind;
  const rawId = (json as { id?: unknown } | null)?.id;
  const id = typeof rawId === 'string' ? rawId.slice(0, 100) : null;
  if (typeof kind !== 'string' || !Object.hasOwn(clientMessages, kind)) return { ok: false, error: `Unknown message kind ${JSON.stringify(kind ?? null)}.`, id };
  const parsed = clientMessage.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue.path.join('.') || 'message'}: ${issue.message}`, id, kind: kind as ClientMessage['kind'] };
  }
  return { ok: true, message: parsed.data };
}
