// The shared document of a room: one Yjs document holding ordered pages.
//   pages            Y.Array<Y.Map>  each { id, title }, in order
//   page:<id>        Y.XmlFragment   the page's content, as Tiptap's
//                                    Collaboration extension writes it
//                                    (lib/rooms/editor-schema.ts: paragraph,
//                                    heading, lists, checklists, tables,
//                                    images, codeBlock, mentions, …)
// The web editor binds one fragment per page; the server reads the same
// structure to export Markdown and writes it to seed templates.
import { getSchema, type JSONContent } from '@tiptap/core';
import type { Mark, Node as ProseMirrorNode } from '@tiptap/pm/model';
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import { defaultMarkdownSerializer, MarkdownSerializer, MarkdownSerializerState } from 'prosemirror-markdown';
import * as Y from 'yjs';
import { randomUUID } from 'node:crypto';
import { documentExtensions, fittingAttributes, fittingMark, NODE_ATTRIBUTES } from './editor-schema.ts';

export const schema = getSchema(documentExtensions);

export const PAGES = 'pages';
export const pageField = (pageId: string) => `page:${pageId}`;

export type Page = { id: string; title: string };

export function pagesOf(doc: Y.Doc): Page[] {
  // Only what fits the model (document-model.ts keeps the rest out; a room stored before it may hold some).
  return doc
    .getArray<unknown>(PAGES)
    .toArray()
    .filter((m): m is Y.Map<unknown> => m instanceof Y.Map && typeof m.get('id') === 'string')
    .map((m) => ({ id: m.get('id') as string, title: typeof m.get('title') === 'string' ? (m.get('title') as string) : 'Untitled' }));
}

export function addPage(doc: Y.Doc, title: string, content: JSONContent[]): string {
  const id = randomUUID().slice(0, 8);
  doc.transact(() => {
    const page = new Y.Map<string>();
    page.set('id', id);
    page.set('title', title);
    doc.getArray<Y.Map<string>>(PAGES).push([page]);
    prosemirrorJSONToYXmlFragment(schema, { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] }, doc.getXmlFragment(pageField(id)));
  });
  return id;
}

// --- templates ---------------------------------------------------------------

const p = (value: string): JSONContent => (value ? { type: 'paragraph', content: [{ type: 'text', text: value }] } : { type: 'paragraph' });
const h = (level: number, value: string): JSONContent => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text: value }] });
const ul = (...items: string[]): JSONContent => ({ type: 'bulletList', content: items.map((item) => ({ type: 'listItem', content: [p(item)] })) });
const todo = (...items: string[]) => ul(...items.map((item) => `[ ] ${item}`));

type Template = { title: string; pages: { title: string; content: JSONContent[] }[] };

/** Starting documents offered at creation (`template`). */
export const TEMPLATES: Record<string, Template> = {
  blank: { title: 'Untitled', pages: [{ title: 'Page 1', content: [] }] },
  notes: {
    title: 'Meeting notes',
    pages: [{ title: 'Notes', content: [h(1, 'Meeting notes'), h(2, 'Attendees'), ul(''), h(2, 'Agenda'), ul(''), h(2, 'Decisions'), ul(''), h(2, 'Actions'), todo('')] }],
  },
  brief: {
    title: 'Project brief',
    pages: [
      { title: 'Brief', content: [h(1, 'Project brief'), h(2, 'Problem'), p(''), h(2, 'Goals'), ul(''), h(2, 'Non-goals'), ul(''), h(2, 'Plan'), p('')] },
      { title: 'Open questions', content: [h(1, 'Open questions'), ul('')] },
    ],
  },
  retro: {
    title: 'Retrospective',
    pages: [{ title: 'Retro', content: [h(1, 'Retrospective'), h(2, 'What went well'), ul(''), h(2, 'What did not'), ul(''), h(2, 'What we will change'), todo('')] }],
  },
  app: {
    title: 'App idea',
    pages: [
      { title: 'Idea', content: [h(1, 'App idea'), h(2, 'Who it is for'), p(''), h(2, 'What it does'), ul(''), h(2, 'Screens'), ul('')] },
      { title: 'Data', content: [h(1, 'Data'), p('Tables and fields the app keeps.')] },
    ],
  },
};

/**
 * The first state of a room's document: the template's pages, and the prompt
 * (when given) as the opening paragraph of the first page, quoted, so everyone
 * who joins sees what the room is for. An AI draft of the prompt (when the
 * server has AI and it answered) follows the quote.
 */
export function initialDocument(templateName: string | null, prompt: string | null, draft: JSONContent[] | null = null): { state: Uint8Array; title: string } {
  const template = TEMPLATES[templateName ?? 'blank'] ?? TEMPLATES.blank;
  const doc = new Y.Doc();
  template.pages.forEach((page, i) => {
    const opening: JSONContent[] = i === 0 && prompt ? [{ type: 'blockquote', content: prompt.split(/\n{2,}/).map((part) => p(part.replace(/\n/g, ' '))) }, ...(draft ?? [])] : [];
    const content = [...opening, ...page.content];
    addPage(doc, page.title, content);
  });
  const state = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return { state, title: template.title };
}

// --- Reading a page ----------------------------------------------------------

/** Deeper than this (a list in a list … 15 times over), elements are left out: each level indents every line under it. */
export const MAX_DEPTH = 32;

/**
 * A page as a ProseMirror document, for every reader (the Markdown export,
 * builds, AI). The one place where what a stored document holds is made to
 * fit the editor schema: elements of no known node, those deeper than
 * MAX_DEPTH and those holding what their node does not take are left out;
 * an attribute or mark attribute outside its rule (a room stored before the
 * guard may hold `level: 300000000`) is read as its default; unknown marks
 * are dropped.
 */
function pageNode(fragment: Y.XmlFragment): ProseMirrorNode {
  const marksOf = (formats: Record<string, unknown> | undefined): Mark[] =>
    Object.entries(formats ?? {}).flatMap(([name, stored]) => {
      const attributes = fittingMark(name, stored);
      return attributes ? [schema.mark(name, attributes)] : [];
    });
  const childrenOf = (parent: Y.XmlFragment, depth: number): ProseMirrorNode[] =>
    parent.toArray().flatMap((child): ProseMirrorNode[] => {
      if (child instanceof Y.XmlText) {
        const runs = child.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[];
        return runs.flatMap((run) => (typeof run.insert === 'string' && run.insert ? [schema.text(run.insert, marksOf(run.attributes))] : []));
      }
      // Another type here (a page stored as Y.Text) makes the page unreadable, as it always did.
      if (!(child instanceof Y.XmlElement)) throw new TypeError('a page holds only XML elements and text');
      const rules = NODE_ATTRIBUTES.get(child.nodeName);
      if (!rules || depth >= MAX_DEPTH) return [];
      // An element whose content its node does not take is left out, as the editor drops it.
      const type = schema.nodes[child.nodeName];
      const node = type.create(fittingAttributes(rules, child.getAttributes()), childrenOf(child, depth + 1));
      return type.validContent(node.content) ? [node] : [];
    });
  return schema.nodes.doc.create(null, childrenOf(fragment, 0));
}

// --- Markdown ----------------------------------------------------------------

const d = defaultMarkdownSerializer;

/** A table cell on one line: its text, and its images as Markdown images. */
function cellText(cell: ProseMirrorNode): string {
  const parts: string[] = [];
  cell.descendants((node) => {
    if (node.isText) parts.push(node.text ?? '');
    else if (node.type.name === 'image') parts.push(` ![${node.attrs.alt ?? ''}](${node.attrs.src ?? ''}) `);
    else if (node.isBlock) parts.push(' ');
    return true;
  });
  return parts.join('').replace(/\s+/g, ' ').trim();
}

// prosemirror-markdown's serializer, with Tiptap's node and mark names.
const serializer = new MarkdownSerializer(
  {
    doc: (state, node) => state.renderContent(node),
    paragraph: d.nodes.paragraph,
    text: d.nodes.text,
    heading: d.nodes.heading,
    blockquote: d.nodes.blockquote,
    codeBlock: (state, node) => {
      const fence = node.textContent.includes('```') ? '~~~' : '```';
      state.write(`${fence}${node.attrs.language ?? ''}\n`);
      state.text(node.textContent, false);
      state.ensureNewLine();
      state.write(fence);
      state.closeBlock(node);
    },
    horizontalRule: d.nodes.horizontal_rule,
    hardBreak: d.nodes.hard_break,
    mention: (state, node) => {
      if (node.attrs.handle) state.write(`@${node.attrs.handle}`);
    },
    bulletList: d.nodes.bullet_list,
    orderedList: (state, node) => {
      // Tiptap names the first number `start`, as prosemirror-markdown's own schema calls it `order`.
      const start = node.attrs.start ?? 1;
      const width = String(start + node.childCount - 1).length;
      const space = ' '.repeat(width + 2);
      state.renderList(node, space, (i) => {
        const n = String(start + i);
        return `${' '.repeat(width - n.length)}${n}. `;
      });
    },
    listItem: d.nodes.list_item,
    taskList: (state, node) => state.renderList(node, '  ', () => '- '),
    taskItem: (state, node) => {
      state.write(node.attrs.checked ? '[x] ' : '[ ] ');
      state.renderContent(node);
    },
    image: (state, node) => {
      state.write(`![${state.esc(node.attrs.alt ?? '')}](${String(node.attrs.src ?? '').replace(/[()\s]/g, encodeURIComponent)}${node.attrs.title ? ` "${String(node.attrs.title).replace(/"/g, '\\"')}"` : ''})`);
      state.closeBlock(node);
    },
    // A GitHub-flavoured table: the first row is the header; a cell is its text on one line.
    table: (state, node) => {
      const rows: string[][] = [];
      node.forEach((row) => {
        const cells: string[] = [];
        row.forEach((cell) => cells.push(cellText(cell).replace(/\|/g, '\\|') || ' '));
        rows.push(cells);
      });
      if (!rows.length) return state.closeBlock(node);
      // The header spans every column; rows below are not padded (GitHub reads a short row with empty
      // cells), so that the export grows with the table, not with its rows times its widest row.
      const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
      const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
      const header = Array.from({ length: width }, (_, i) => rows[0][i] ?? ' ');
      state.write([line(header), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n'));
      state.closeBlock(node);
    },
    tableRow: () => {},
    tableCell: () => {},
    tableHeader: () => {},
  },
  {
    bold: d.marks.strong,
    italic: d.marks.em,
    code: d.marks.code,
    link: d.marks.link,
    strike: { open: '~~', close: '~~', mixable: true, expelEnclosingWhitespace: true },
    underline: { open: '', close: '' },
  },
);

/** The most Markdown one export writes, in characters (a few long books): past it, the export ends with a note. */
export const MAX_MARKDOWN = 4 * 1024 * 1024;

/** What ends an export cut at MAX_MARKDOWN. */
export const CUT_SHORT = `*(The rest is past the ${MAX_MARKDOWN.toLocaleString('en')} characters an export holds.)*`;

class CutShort extends Error {}

/**
 * prosemirror-markdown's state, writing in linear time and at most `limit`
 * characters (and the line under way). The library asks at every block
 * whether its output so far ends a line (a regular expression over all of
 * it), which made a page of 20,000 list items take seconds and grew with the
 * square of the page. It only ever reads the end of that output, so all but
 * its last characters are set aside as it grows.
 */
// Its constructor is left out of the library's typings (it is called by the serializer).
const SerializerState = MarkdownSerializerState as unknown as new (nodes: MarkdownSerializer['nodes'], marks: MarkdownSerializer['marks'], options: object) => MarkdownSerializerState;

class LinearState extends SerializerState {
  private written: string[] = [];
  private writtenLength = 0;
  private limit: number;

  constructor(limit: number) {
    super(serializer.nodes, serializer.marks, {});
    this.limit = limit;
  }

  write(content?: string) {
    const self = this as unknown as { out: string };
    if (this.writtenLength + self.out.length > this.limit) throw new CutShort();
    if (self.out.length > 2048) {
      this.written.push(self.out.slice(0, -256));
      this.writtenLength += self.out.length - 256;
      self.out = self.out.slice(-256);
    }
    super.write(content);
  }

  markdown(): string {
    return this.written.join('') + (this as unknown as { out: string }).out;
  }
}

/** One page as Markdown, of at most about `limit` characters (past them it ends with CUT_SHORT). */
export function pageMarkdown(doc: Y.Doc, pageId: string, limit = MAX_MARKDOWN): string {
  const state = new LinearState(limit);
  // A page that does not fit the model is skipped, not a failure of the whole export or build.
  try {
    state.renderContent(pageNode(doc.getXmlFragment(pageField(pageId))));
    return state.markdown();
  } catch (error) {
    if (error instanceof CutShort) return `${state.markdown()}\n\n${CUT_SHORT}`;
    return UNREADABLE_PAGE;
  }
}

/** A page as the editor's JSON (what a snapshot keeps to restore it), or null when it cannot be read. */
export function pageContent(doc: Y.Doc, pageId: string): JSONContent | null {
  try {
    return pageNode(doc.getXmlFragment(pageField(pageId))).toJSON() as JSONContent;
  } catch {
    return null;
  }
}

/**
 * Makes the page hold `content`, changing only what differs (y-tiptap's
 * fragment update), so that edits made meanwhile elsewhere merge around it.
 */
export function setPageContent(doc: Y.Doc, pageId: string, content: JSONContent): void {
  prosemirrorJSONToYXmlFragment(schema, content, doc.getXmlFragment(pageField(pageId)));
}

/** What stands for a page that cannot be read. */
export const UNREADABLE_PAGE = '*(This page could not be read.)*';

/** A stored document's pages, in order. */
export function documentPages(state: Uint8Array | null): Page[] {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  const pages = pagesOf(doc);
  doc.destroy();
  return pages;
}

/** Every page, each under its title, in order. */
export function documentMarkdown(state: Uint8Array | null, name: string): string {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  const parts = [`# ${name}`];
  let left = MAX_MARKDOWN;
  for (const page of pagesOf(doc)) {
    const title = `## ${page.title}`;
    const markdown = pageMarkdown(doc, page.id, left - title.length).trim();
    parts.push(title, markdown);
    left -= title.length + markdown.length;
    if (markdown.endsWith(CUT_SHORT)) break;
  }
  doc.destroy();
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}
