// AI suggestions over a room's socket (docs/realtime.md). An editor of a room
// with `aiSuggest` on sends `ai.suggest` with a page and the text before the
// cursor; the server drafts a continuation from the page, the room's sources
// not hidden from AI and that text (lib/rooms/ai.ts), and answers that socket
// only: `ai.suggestion` or `ai.error`. Nothing is inserted in the document:
// the person who asked inserts it or not. Without AI_BASE_URL, in a live
// space, for a viewer or commenter, or with aiSuggest off, the answer is a
// refusal and nothing leaves the server.
import { roomRoleCan } from '../lib/access/rooms.ts';
import { AiError, aiConfigured } from '../lib/ai/client.ts';
import { ApiError } from '../lib/core/errors.ts';
import { log } from '../lib/log.ts';
import { aiLimit, suggestForPage } from '../lib/rooms/ai.ts';
import { aiSuggestOn } from '../lib/rooms/sockets.ts';
import type { ClientMessage } from '../lib/schemas/socket.ts';
import { send, type StatelessPayload } from './socket.ts';

export const OFF = 'AI suggestions are off';

export async function suggest({ connection, document }: StatelessPayload, message: Extract<ClientMessage, { kind: 'ai.suggest' }>) {
  const { context } = connection;
  const id = message.id ?? null;
  const refuse = (text: string) => send(connection, { kind: 'ai.error', id, message: text });
  if (context.kind !== 'room') return refuse(`${OFF} in live spaces.`);
  if (!aiConfigured()) return refuse(`${OFF} on this server (no AI service is configured).`);
  if (!roomRoleCan(context.role, 'edit')) return refuse(`${OFF} for your role: they need edit in this room.`);
  if (!(await aiSuggestOn(context.roomId))) return refuse(`${OFF} in this room (its owner can turn on aiSuggest).`);
  try {
    await aiLimit.consume(context.user.id);
    const text = await suggestForPage(document, context.roomId, message.pageId, message.cursorContext ?? '');
    send(connection, { kind: 'ai.suggestion', id, pageId: message.pageId, text });
  } catch (error) {
    if (error instanceof AiError || error instanceof ApiError) return refuse(error.message);
    log.error('AI suggestion failed', { roomId: context.roomId, error: error instanceof Error ? error.name : 'unknown' });
    refuse('The suggestion failed; try again.');
  }
}
