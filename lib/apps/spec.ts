// What a build produces before any file is written: the app's pages (blocks
// of headings, text, lists and tables) and its tables (columns, first rows,
// whether visitors may add rows). Both builders make one: the outline builder
// from a page's Markdown, offline and deterministic; the AI builder by asking
// the configured model for this same shape (checked with the schema below).
// render.ts turns it into files.
import { z } from 'zod';

const line = z.string().max(2000);

export const block = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), level: z.number().int().min(1).max(6), text: line }),
  z.object({ type: z.literal('text'), text: z.string().max(20_000) }),
  z.object({ type: z.literal('list'), ordered: z.boolean(), items: z.array(line).max(500) }),
  z.object({ type: z.literal('table'), table: z.string().max(60) }),
]);

// Every page lists every other in its navigation, so their number is what keeps an app's files small.
export const MAX_APP_PAGES = 50;
export const MAX_APP_TABLES = 30;

export const appSpec = z.object({
  name: z.string().min(1).max(100),
  pages: z
    .array(z.object({ slug: z.string().regex(/^[a-z0-9-]{0,60}$/), title: z.string().min(1).max(200), blocks: z.array(block).max(1000) }))
    .min(1)
    .max(MAX_APP_PAGES),
  tables: z
    .array(
      z.object({
        name: z.string().regex(/^[a-z][a-z0-9_]{0,59}$/),
        title: z.string().min(1).max(200),
        columns: z.array(z.string().min(1).max(100)).min(1).max(30),
        rows: z.array(z.array(z.string().max(2000))).max(5000),
        guestWrites: z.boolean(),
      }),
    )
    .max(MAX_APP_TABLES),
});

export type AppSpec = z.infer<typeof appSpec>;
export type Block = z.infer<typeof block>;
export type TableSpec = AppSpec['tables'][number];

/** "Sign-up list" -> "sign-up-list": page paths. */
export function pageSlug(title: string, taken: Set<string>): string {
  const base = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || 'page';
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  taken.add(slug);
  return slug;
}

/** "Sign-up list" -> "sign_up_list": table names, safe as SQL identifiers. */
export function tableName(title: string, taken: Set<string>): string {
  let base = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 50) || 'table';
  if (!/^[a-z]/.test(base)) base = `t_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

// A heading ending in "(form)" makes the tables under it open to visitors' rows.
const FORM_MARK = /\s*\(form\)\s*$/i;

/** Markdown escapes prosemirror-markdown adds, removed again: the app shows plain text. */
function plain(text: string): string {
  return text.replace(/\\([\\`*_~[\]#+\-.!|>()])/g, '$1').trim();
}

function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => plain(c));
}

const SEPARATOR = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

/**
 * The outline builder. A page's Markdown becomes an app:
 *   - its first level-1 heading (else the page's title) names the app;
 *   - what comes before the first level-2 heading is the home page, and each
 *     level-2 heading starts a page of its own (the navigation, in order);
 *   - paragraphs, lists and lower headings are kept in place;
 *   - a table (lines starting with "|", the first row the columns; the
 *     escaped "\|" separators the editor writes are read too) becomes one of
 *     the app's tables, its rows the table's first data; under a heading that
 *     ends in "(form)", visitors of the live app may add rows to it.
 * Past MAX_APP_PAGES, level-2 headings stay headings of the last page, and
 * tables past MAX_APP_TABLES are left out: a page of 10,000 headings makes
 * an app of 50 pages, not one of 10,000 pages each listing 10,000.
 */
export function outlineSpec(markdown: string, fallbackName: string): AppSpec {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let name: string | null = null;
  const slugs = new Set<string>(['']);
  const names = new Set<string>();
  const pages: AppSpec['pages'] = [{ slug: '', title: 'Home', blocks: [] }];
  const tables: AppSpec['tables'] = [];
  let heading = '';
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let table: string[][] | null = null;
  const page = () => pages[pages.length - 1];

  const flush = () => {
    if (paragraph.length) page().blocks.push({ type: 'text', text: plain(paragraph.join(' ')) });
    paragraph = [];
    if (list) page().blocks.push({ type: 'list', ordered: list.ordered, items: list.items });
    list = null;
    if (table && table.length && tables.length < MAX_APP_TABLES) {
      const [head, ...rows] = table;
      const columns = head.map((c, i) => c || `Column ${i + 1}`);
      const title = (heading.replace(FORM_MARK, '') || `Table ${tables.length + 1}`).slice(0, 200);
      const tableNameValue = tableName(title, names);
      tables.push({
        name: tableNameValue,
        title,
        columns,
        // The editor's table starts with empty rows (and Tab adds more): an empty row is no data.
        rows: rows.filter((r) => r.some((c) => c.trim() !== '')).map((r) => columns.map((_, i) => r[i] ?? '')),
        guestWrites: FORM_MARK.test(heading),
      });
      page().blocks.push({ type: 'table', table: tableNameValue });
    }
    table = null;
  };

  for (const raw of lines) {
    const text = raw.trim();
    // The editor keeps table rows as paragraphs, escaping a leading pipe.
    const row = text.replace(/^\\\|/, '|');
    if (row.startsWith('|')) {
      if (!table) {
        flush();
        table = [];
      }
      if (!SEPARATOR.test(row.replace(/\\/g, ''))) table.push(cells(row));
      continue;
    }
    if (text === '') {
      // Blank lines end paragraphs; the editor writes list items and table rows apart.
      if (paragraph.length) flush();
      continue;
    }
    if (table) flush();
    const h = /^(#{1,6})\s+(.*)$/.exec(text);
    if (h) {
      flush();
      const level = h[1].length;
      const value = plain(h[2]);
      heading = value;
      if (level === 1 && name === null) name = value;
      else if (level === 2 && pages.length < MAX_APP_PAGES) pages.push({ slug: pageSlug(value.replace(FORM_MARK, ''), slugs), title: (value.replace(FORM_MARK, '') || 'Page').slice(0, 200), blocks: [] });
      else page().blocks.push({ type: 'heading', level, text: value.replace(FORM_MARK, '') });
      continue;
    }
    // An empty list item (a template's placeholder) adds nothing.
    if (/^(?:[-*+]|\d+[.)])$/.test(text)) continue;
    const item = /^(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(text);
    if (item) {
      if (paragraph.length) flush();
      const ordered = item[2] !== undefined;
      if (list && list.ordered !== ordered) flush();
      list ??= { ordered, items: [] };
      list.items.push(plain(item[3]));
      continue;
    }
    if (list) flush();
    paragraph.push(text.replace(/^>\s?/, ''));
  }
  flush();
  const home = pages[0];
  if (!home.blocks.length && pages.length > 1) pages.shift();
  if (pages[0].slug !== '') pages[0] = { ...pages[0], slug: '' };
  return { name: (name || fallbackName).slice(0, 100), pages, tables };
}
