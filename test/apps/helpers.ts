// Rooms whose first page is written here, as the editor would store it.
import type { JSONContent } from '@tiptap/core';
import * as Y from 'yjs';
import { db } from '@/lib/db/client.ts';
import { addPage } from '@/lib/rooms/document.ts';

const p = (text: string): JSONContent => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const h = (level: number, text: string): JSONContent => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text }] });
const ul = (...items: string[]): JSONContent => ({ type: 'bulletList', content: items.map((i) => ({ type: 'listItem', content: [p(i)] })) });

/** A book club: a home page, a Books page with a table, and a sign-up form table. */
export function bookClub(extraBook?: string): JSONContent[] {
  return [
    h(1, 'Book club'),
    p('We read one book a month.'),
    h(2, 'Books'),
    ul('Pick by vote', 'Meet on Thursdays'),
    p('| Title | Author |'),
    p('| --- | --- |'),
    p('| Dune | Herbert |'),
    ...(extraBook ? [p(`| ${extraBook} | Someone |`)] : []),
    h(2, 'Sign up (form)'),
    p('| Name | Email |'),
    p('| --- | --- |'),
    p('| Ada | ada@example.com |'),
  ];
}

/** Replaces the room's document with one page holding `content`; returns the page's id. */
export async function writeRoom(roomId: string, content: JSONContent[], title = 'Club'): Promise<string> {
  const doc = new Y.Doc();
  const id = addPage(doc, title, content);
  await db.room.update({ where: { id: roomId }, data: { roomDoc: Buffer.from(Y.encodeStateAsUpdate(doc)) } });
  doc.destroy();
  return id;
}
