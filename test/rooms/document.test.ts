// What the editor writes, the server reads: checklists, tables and image
// blocks (lib/rooms/editor-schema.ts) export as Markdown, and a table becomes
// an app's table when built.
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { addPage, CUT_SHORT, documentMarkdown, MAX_MARKDOWN, pageMarkdown } from '@/lib/rooms/document.ts';
import { renderApp } from '@/lib/apps/render.ts';
import { appSpec, MAX_APP_PAGES, outlineSpec } from '@/lib/apps/spec.ts';

const text = (value: string) => ({ type: 'text', text: value });
const paragraph = (value: string) => ({ type: 'paragraph', content: [text(value)] });
const cell = (type: 'tableHeader' | 'tableCell', value: string) => ({ type, content: [paragraph(value)] });

describe('the document model in Markdown', () => {
  it('exports checklists, tables (GitHub style) and image blocks', () => {
    const doc = new Y.Doc();
    const id = addPage(doc, 'Plan', [
      { type: 'heading', attrs: { level: 1 }, content: [text('Reading club')] },
      { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [paragraph('Pick a book')] }, { type: 'taskItem', attrs: { checked: false }, content: [paragraph('Book a room')] }] },
      { type: 'heading', attrs: { level: 2 }, content: [text('Books (form)')] },
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', 'Title'), cell('tableHeader', 'Author')] },
          { type: 'tableRow', content: [cell('tableCell', 'Dune'), cell('tableCell', 'Frank | Herbert')] },
          { type: 'tableRow', content: [cell('tableCell', 'Emma'), { type: 'tableCell', content: [paragraph('Austen'), { type: 'image', attrs: { src: '/i/1', alt: 'portrait' } }] }] },
        ],
      },
      { type: 'image', attrs: { src: 'https://atrium.example/v1/live-spaces/ls_1/images/img_1', alt: 'Cover (front)' } },
    ]);
    const markdown = pageMarkdown(doc, id);
    expect(markdown).toContain('- [x] Pick a book\n\n- [ ] Book a room');
    expect(markdown).toContain('| Title | Author |\n| --- | --- |\n| Dune | Frank \\| Herbert |\n| Emma | Austen ![portrait](/i/1) |');
    expect(markdown).toContain('![Cover (front)](https://atrium.example/v1/live-spaces/ls_1/images/img_1)');
    expect(markdown).not.toContain('could not be read');
    // The outline builder reads the table as the app's table, visitors' rows and all.
    const spec = outlineSpec(markdown, 'Plan');
    expect(spec.tables).toEqual([{ name: 'books', title: 'Books', columns: ['Title', 'Author'], rows: [['Dune', 'Frank | Herbert'], ['Emma', 'Austen ![portrait](/i/1)']], guestWrites: true }]);
  });

  it('builds a page of 2,000 level-2 headings into an app of at most 50 pages, not 2,000 pages each listing 2,000', () => {
    const doc = new Y.Doc();
    const title = 'A long heading '.repeat(30);
    const id = addPage(doc, 'Many', Array.from({ length: 2000 }, () => ({ type: 'heading', attrs: { level: 2 }, content: [text(title)] })));
    const markdown = pageMarkdown(doc, id);
    const spec = outlineSpec(markdown, 'Many');
    expect(spec.pages.length).toBeGreaterThan(MAX_APP_PAGES - 2);
    expect(spec.pages.length).toBeLessThanOrEqual(MAX_APP_PAGES);
    // The last page holds the other 1,950 headings: past the 1,000 blocks of a page, so that build fails saying so.
    expect(appSpec.safeParse(spec).error?.issues[0]).toMatchObject({ path: ['pages', spec.pages.length - 1, 'blocks'] });
    const bytes = renderApp(spec).reduce((sum, file) => sum + file.content.byteLength, 0);
    // Each heading is written a few times (its page, app.json), not once per page.
    expect(bytes).toBeLessThan(4 * markdown.length);
  });

  it('writes a long page in linear time: no look at the output so far reads more than its end', () => {
    const doc = new Y.Doc();
    const id = addPage(doc, 'List', [{ type: 'bulletList', content: Array.from({ length: 20_000 }, () => ({ type: 'listItem', content: [paragraph('item')] })) }]);
    // prosemirror-markdown asks a regular expression whether the output so far ends a line, at every block.
    const test = RegExp.prototype.test;
    let longest = 0;
    RegExp.prototype.test = function (this: RegExp, input: string) {
      longest = Math.max(longest, String(input).length);
      return test.call(this, input);
    };
    let markdown = '';
    try {
      markdown = pageMarkdown(doc, id);
    } finally {
      RegExp.prototype.test = test;
    }
    expect(markdown.length).toBeGreaterThan(150_000);
    expect(longest).toBeLessThan(5_000);
  });

  it('cuts an export at MAX_MARKDOWN characters: 15 lists deep, a line of two bytes writes 167', () => {
    let content: object[] = [paragraph('x\n'.repeat(100_000))];
    for (let i = 0; i < 15; i++) content = [{ type: 'orderedList', attrs: { start: 999_999_999 }, content: [{ type: 'listItem', content: [paragraph('level'), ...content] }] }];
    const doc = new Y.Doc();
    addPage(doc, 'Deep', content as never);
    addPage(doc, 'After', [paragraph('never reached')]);
    const state = Y.encodeStateAsUpdate(doc);
    expect(state.byteLength).toBeLessThan(220_000);
    const markdown = documentMarkdown(state, 'Deep');
    expect(markdown.length).toBeGreaterThan(MAX_MARKDOWN - 200_000);
    expect(markdown.length).toBeLessThan(MAX_MARKDOWN + 200_000);
    expect(markdown.trim().endsWith(CUT_SHORT)).toBe(true);
    expect(markdown).not.toContain('never reached');
  });
});
