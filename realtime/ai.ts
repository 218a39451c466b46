// AI suggestions over a room's socket (docs/realtime.md). An editor of a room
// with `aiSuggest` on sends `{ kind: 'ai.suggest', pageId, cursorContext }`;
// the server drafts a continuation from the page, the room's sources not
// hidden from AI and the text before the cursor (lib/rooms/ai.ts), and answers
// that socket only: `ai.suggestion` or `ai.error`. Nothing is inserted in the
// document: the person who asked inserts it or not. Without AI_BASE_URL, in a
// live space, for a viewer or commenter, or with aiSuggest off, the answer is
// a refusal and nothing leaves the server.
import type { Extension, onStatelessPayload } from '@hocuspocus/server';
import { roomRoleCan } from '../lib/access/rooms.ts';
import { AiError, aiConfigured } from '../lib/ai/client.ts';
import { db } from '../lib/db/client.ts';
import { ApiError } from '../lib/http/errors.ts';
import { log } from '../lib/log.ts';
import { aiLimit, suggestForPage } from '../lib/rooms/ai.ts';
import { send, statelessKinds, type SocketContext } from './extensions.ts';

statelessKinds.add('ai.suggest');

export const OFF = 'AI suggestions are off';

export const ai: Extension = {
  extensionName: 'ai',
  async onStateless({ connection, document, payload }: onStatelessPayload) {
    let message: { kind?: unknown; pageId?: unknown; cursorContext?: unknown; id?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      return; // the chat extension answers unreadable messages
    }
    if (message?.kind !== 'ai.suggest') return;
    const context = connection.context as SocketContext;
    const id = typeof message.id === 'string' ? message.id.slice(0, 100) : null;
    const refuse = (text: string) => send(connection, { kind: 'ai.error', id, message: text });
    if (context.kind !== 'room') return refuse(`${OFF} in live spaces.`);
    if (!aiConfigured()) return refuse(`${OFF} on this server (no AI service is configured).`);
    if (!roomRoleCan(context.role, 'edit')) return refuse(`${OFF} for your role: they need edit in this room.`);
    const room = await db.room.findUnique({ where: { id: context.roomId }, select: { aiSuggest: true } });
    if (!room?.aiSuggest) return refuse(`${OFF} in this room (its owner can turn on aiSuggest).`);
    if (typeof message.pageId !== 'string' || !message.pageId) return refuse('pageId must be the id of a page.');
    if (message.cursorContext !== undefined && typeof message.cursorContext !== 'string') return refuse('cursorContext must be a string.');
    try {
      await aiLimit.consume(context.user.id);
      const text = await suggestForPage(document, context.roomId, message.pageId, (message.cursorContext as string | undefined) ?? '');
      send(connection, { kind: 'ai.suggestion', id, pageId: message.pageId, text });
    } catch (error) {
      if (error instanceof AiError || error instanceof ApiError) return refuse(error.message);
      log.error('AI suggestion failed', { roomId: context.roomId, error: error instanceof Error ? error.name : 'unknown' });
      refuse('The suggestion failed; try again.');
    }
  },
};
