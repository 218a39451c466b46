// What rooms ask of the AI service (lib/ai/client.ts): a suggestion to continue
// a page at the cursor, and a first draft of a new room's first page from its
// `prompt`. The text sent is bounded: the page, the sources people have not
// hidden from AI, and the text before the cursor, each with its own share of
// MAX_INPUT_CHARS. Sources marked `hiddenFromAi` are never read here.
import type { JSONContent } from '@tiptap/core';
import type * as Y from 'yjs';
import { clip, complete, MAX_INPUT_CHARS } from '../ai/client.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { pageMarkdown, pagesOf } from './document.ts';

/** AI calls per person (suggestions and drafts together), counted across instances. */
export const aiLimit = rateLimit({ name: 'ai-suggest', points: 20, duration: 60, message: 'Too many AI suggestions: at most 20 a minute. Wait a moment.' });

/** Shares of the input: the page, the room's sources (all together) and the text before the cursor. */
export const PAGE_CHARS = 4000;
export const SOURCES_CHARS = 2000;
export const CURSOR_CHARS = 1000;

const SUGGEST_SYSTEM =
  'You help people write a shared document. Continue the page at the cursor with one or two short paragraphs ' +
  'that fit what comes before it. Answer with the text to insert only, as plain text: no preamble, no quotes, no Markdown headings.';

const DRAFT_SYSTEM =
  'You draft the first page of a shared document from what its author says it is for. Write a short, useful first draft ' +
  '(headings and bullet points welcome) in Markdown: lines starting with "# " or "## " for headings, "- " for list items, ' +
  'blank lines between paragraphs. No preamble.';

/** The room's source texts that may be shown to AI, oldest first, together at most SOURCES_CHARS. */
async function sourceTexts(roomId: string): Promise<string> {
  const rows = await db.roomSource.findMany({
    where: { roomId, hiddenFromAi: false, status: 'ready' },
    select: { name: true, extractedText: true },
    orderBy: { createdAt: 'asc' },
    take: 20,
  });
  let left = SOURCES_CHARS;
  const parts: string[] = [];
  for (const row of rows) {
    if (left <= 0 || !row.extractedText) continue;
    const part = clip(`[${row.name}]\n${row.extractedText}`, left);
    parts.push(part);
    left -= part.length;
  }
  return parts.join('\n\n');
}

/** A suggestion for the page at the cursor. `cursorContext` is the text just before the cursor, as the client saw it. */
export async function suggestForPage(doc: Y.Doc, roomId: string, pageId: string, cursorContext: string): Promise<string> {
  if (!pagesOf(doc).some((p) => p.id === pageId)) throw new ApiError('not_found', `No page "${pageId.slice(0, 100)}" in this room.`);
  const page = pageMarkdown(doc, pageId).trim();
  // The end of a long page is nearer the cursor than its start, most of the time.
  const pageText = page.length > PAGE_CHARS ? page.slice(page.length - PAGE_CHARS) : page;
  const sources = await sourceTexts(roomId);
  const user = [
    sources ? `Reference material from the room's sources:\n${sources}` : '',
    `The page so far:\n${pageText || '(empty)'}`,
    `Text just before the cursor:\n${clip(cursorContext.slice(-CURSOR_CHARS), CURSOR_CHARS) || '(start of the page)'}`,
  ]
    .filter(Boolean)
    .join('\n\n---\n\n');
  return complete({ system: SUGGEST_SYSTEM, user: clip(user, MAX_INPUT_CHARS - SUGGEST_SYSTEM.length) });
}

/** A first draft of a room's first page from its prompt, as Tiptap blocks. Throws AiError. */
export async function draftFromPrompt(prompt: string, timeoutMs?: number): Promise<JSONContent[]> {
  return markdownBlocks(await complete({ system: DRAFT_SYSTEM, user: prompt, timeoutMs }));
}

const text = (value: string): JSONContent[] => (value ? [{ type: 'text', text: value }] : []);

/**
 * The few Markdown forms the draft is asked for, as StarterKit blocks:
 * headings, bullet items and paragraphs; anything else stays plain text (it is
 * a draft people edit, not Markdown to render faithfully).
 */
export function markdownBlocks(markdown: string): JSONContent[] {
  const blocks: JSONContent[] = [];
  let list: JSONContent | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', content: text(paragraph.join(' ')) });
    paragraph = [];
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (item) {
      flush();
      if (!list) blocks.push((list = { type: 'bulletList', content: [] }));
      list.content!.push({ type: 'listItem', content: [{ type: 'paragraph', content: text(item[1]) }] });
      continue;
    }
    list = null;
    if (heading) {
      flush();
      blocks.push({ type: 'heading', attrs: { level: heading[1].length }, content: text(heading[2]) });
    } else if (!line) flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}
