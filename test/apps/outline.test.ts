// The outline builder: a page's Markdown as the editor writes it becomes the
// app's pages, navigation and tables.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { renderApp } from '@/lib/apps/render.ts';
import { outlineSpec } from '@/lib/apps/spec.ts';
import { addPage, pageMarkdown } from '@/lib/rooms/document.ts';
import { bookClub } from './helpers.ts';

function markdownOf(content: ReturnType<typeof bookClub>) {
  const doc = new Y.Doc();
  const id = addPage(doc, 'Club', content);
  return pageMarkdown(doc, id);
}

describe('outline builder', () => {
  it('makes pages from level-2 headings, keeps text and lists, and reads tables the editor escaped', () => {
    const spec = outlineSpec(markdownOf(bookClub()), 'Fallback');
    expect(spec.name).toBe('Book club');
    expect(spec.pages.map((p) => [p.slug, p.title])).toEqual([
      ['', 'Home'],
      ['books', 'Books'],
      ['sign-up', 'Sign up'],
    ]);
    expect(spec.pages[0].blocks).toEqual([{ type: 'text', text: 'We read one book a month.' }]);
    expect(spec.pages[1].blocks[0]).toEqual({ type: 'list', ordered: false, items: ['Pick by vote', 'Meet on Thursdays'] });
    expect(spec.tables).toEqual([
      { name: 'books', title: 'Books', columns: ['Title', 'Author'], rows: [['Dune', 'Herbert']], guestWrites: false },
      { name: 'sign_up', title: 'Sign up', columns: ['Name', 'Email'], rows: [['Ada', 'ada@example.com']], guestWrites: true },
    ]);
  });

  it("leaves out a table's empty rows, as the editor's new tables have", () => {
    const spec = outlineSpec('## Gear\n\n| Item | Owner |\n| --- | --- |\n| Tent | Ada |\n|  |  |\n|   |   |\n', 'Gear');
    expect(spec.tables[0].rows).toEqual([['Tent', 'Ada']]);
    const gear = renderApp(spec).find((f) => f.path === 'index.html')!.content.toString();
    expect(gear.match(/<tr>/g)).toHaveLength(2);
  });

  it("shows a page's title once when the page's first block repeats it", () => {
    const spec = { name: 'Club', pages: [{ slug: '', title: 'Home', blocks: [{ type: 'heading' as const, level: 1, text: 'Club' }, { type: 'text' as const, text: 'Hello' }] }, { slug: 'books', title: 'Books', blocks: [{ type: 'heading' as const, level: 1, text: 'books ' }, { type: 'heading' as const, level: 2, text: 'Books' }] }], tables: [] };
    const files = renderApp(spec);
    const home = files.find((f) => f.path === 'index.html')!.content.toString();
    expect(home.match(/>Club<\/h[1-6]>/g)).toEqual(['>Club</h1>']);
    expect(home).toContain('<p>Hello</p>');
    // Only the first block: a later heading of the same words is the page's own.
    const books = files.find((f) => f.path === 'books/index.html')!.content.toString();
    expect(books.match(/>Books<\/h[1-6]>/g)).toEqual(['>Books</h1>', '>Books</h3>']);
  });

  it('names the app after the page when it has no level-1 heading, and escapes text in the pages', () => {
    const spec = outlineSpec('Just <b>text</b> & more\n', 'Notes');
    expect(spec.name).toBe('Notes');
    const index = renderApp(spec).find((f) => f.path === 'index.html')!.content.toString();
    expect(index).toContain('Just &#60;b&#62;text&#60;/b&#62; &#38; more');
    expect(index).not.toContain('<b>text</b>');
  });

  it('writes one page per app page, the tables with their first rows, and the spec', () => {
    const files = renderApp(outlineSpec(markdownOf(bookClub()), 'Fallback'));
    expect(files.map((f) => f.path).sort()).toEqual(['_api/session', 'app.json', 'assets/app.css', 'assets/app.js', 'books/index.html', 'data/books.json', 'data/sign_up.json', 'index.html', 'sign-up/index.html']);
    const books = files.find((f) => f.path === 'books/index.html')!.content.toString();
    expect(books).toContain('<td>Dune</td>');
    expect(books).toContain('href="../sign-up/"');
  });
});

describe('outline builder on a template', () => {
  it('skips empty placeholders and, with an empty home, makes the first section the home page under the app name', () => {
    const spec = outlineSpec('# App idea\n\n## Who it is for\n\n## What it does\n\n* \n\n## Screens\n\n*\n', 'Idea');
    expect(spec.pages.map((p) => [p.slug, p.title, p.blocks.length])).toEqual([
      ['', 'Who it is for', 0],
      ['what-it-does', 'What it does', 0],
      ['screens', 'Screens', 0],
    ]);
    const home = renderApp(spec).find((f) => f.path === 'index.html')!.content.toString();
    expect(home).toContain('<h1>App idea</h1>');
  });
});
