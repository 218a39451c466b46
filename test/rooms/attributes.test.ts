// Every attribute in a room's document holds what the editor schema allows
// (lib/rooms/editor-schema.ts): the guard refuses an update setting anything
// else (one Yjs update setting a heading's level to 300,000,000 made the
// Markdown export build a 300 MB line and took the node down), and a room
// stored before the guard exports and builds with such values read as their
// defaults.
import type { AddressInfo } from 'node:net';
import * as encoding from 'lib0/encoding';
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { db } from '@/lib/db/client.ts';
import { updateMisfit } from '@/lib/rooms/document-model.ts';
import { addPage, MAX_DEPTH, pageMarkdown, schema } from '@/lib/rooms/document.ts';
import { EditorState } from '@tiptap/pm/state';
import { attributeRulesPlugin, MARK_ATTRIBUTES, NODE_ATTRIBUTES } from '@/lib/rooms/editor-schema.ts';
import { createRealtime, type Realtime } from '@/realtime/server.ts';
import { createFrontServer } from '@/server/index.ts';
import { World } from '../http/world.ts';
import { openRaw, type RawClient } from './raw-client.ts';
import { ticketUrl, waitFor } from './socket-helpers.ts';

let realtime: Realtime;
let server: ReturnType<typeof createFrontServer>;
let origin = '';
let w: World;
const clients: RawClient[] = [];

beforeAll(async () => {
  realtime = createRealtime({ name: 'attributes', recheckMs: 60_000 });
  server = createFrontServer({ upgrades: realtime.handleUpgrade });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await realtime.ready;
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  w = await new World(origin, 'att').build();
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await realtime.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A document with one page, and what `change` does to a copy of it, as a socket would carry it. */
function withPage(content: object[] = [{ type: 'paragraph' }]) {
  const doc = new Y.Doc();
  const pageId = addPage(doc, 'Page', content as never);
  const change = (edit: (page: Y.XmlFragment) => void) => {
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    const before = Y.encodeStateVector(copy);
    edit(copy.getXmlFragment(`page:${pageId}`));
    return Y.encodeStateAsUpdate(copy, before);
  };
  return { doc, pageId, change };
}

const element = (name: string, attributes: Record<string, unknown> = {}, text = 'x') => {
  const node = new Y.XmlElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value as never);
  if (text) node.insert(0, [new Y.XmlText(text)]);
  return node;
};

describe('the attribute rules', () => {
  it('name every attribute of every node and mark of the editor schema, and nothing else', () => {
    const attributesOf = (types: Record<string, { spec: { attrs?: object } }>) =>
      Object.fromEntries(Object.entries(types).map(([name, type]) => [name, Object.keys(type.spec.attrs ?? {}).sort()]));
    const { doc, text, ...nodes } = attributesOf(schema.nodes as never);
    void doc;
    void text;
    expect(Object.fromEntries([...NODE_ATTRIBUTES].map(([name, rules]) => [name, Object.keys(rules).sort()]))).toEqual(nodes);
    expect(Object.fromEntries([...MARK_ATTRIBUTES].map(([name, rules]) => [name, Object.keys(rules).sort()]))).toEqual(attributesOf(schema.marks as never));
  });
});

describe('the guard', () => {
  it('lets through what the editor writes: every node and mark with its attributes', () => {
    const { doc, change } = withPage();
    const text = (value: string, marks: object[] = []) => ({ type: 'text', text: value, marks });
    const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
    const page = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 6 }, content: [text('Six')] },
        paragraph(text('bold', [{ type: 'bold' }]), text('link', [{ type: 'link', attrs: { href: 'https://example.com/a?b=c' } }]), text('mail', [{ type: 'link', attrs: { href: 'mailto:a@example.com' } }]), text('rel', [{ type: 'link', attrs: { href: '/v1/x' } }])),
        { type: 'orderedList', attrs: { start: 999_999_999, type: 'a' }, content: [{ type: 'listItem', content: [paragraph(text('one'))] }] },
        { type: 'codeBlock', attrs: { language: 'c++' }, content: [text('int x;')] },
        { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [paragraph(text('done'))] }] },
        { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableHeader', attrs: { colspan: 2, colwidth: [100, 120], align: 'center' }, content: [paragraph(text('h'))] }] }] },
        { type: 'image', attrs: { src: 'https://example.com/i.png', alt: 'A', title: 'T', width: '50%' } },
        paragraph({ type: 'mention', attrs: { id: 'usr_1', handle: 'ada' } }),
      ],
    };
    const update = change((fragment) => prosemirrorJSONToYXmlFragment(schema, page, fragment));
    expect(updateMisfit(doc, update)).toBeNull();
  });

  it('refuses an attribute outside its rule, an unknown attribute, element or mark', () => {
    const { doc, change } = withPage();
    const insert = (node: Y.XmlElement) => change((page) => page.insert(0, [node]));
    const inText = (edit: (text: Y.XmlText) => void) =>
      change((page) => {
        const text = new Y.XmlText();
        page.insert(0, [element('paragraph', {}, '')]);
        (page.get(0) as Y.XmlElement).insert(0, [text]);
        edit(text);
      });
    const formatted = (attributes: Record<string, unknown>) => inText((text) => text.insert(0, 'x', attributes));
    const cases: [string, Uint8Array][] = [
      ['level 300000000', insert(element('heading', { level: 300_000_000 }))],
      ['level 2e6', insert(element('heading', { level: 2e6 }))],
      ['level 7', insert(element('heading', { level: 7 }))],
      ['level 0', insert(element('heading', { level: 0 }))],
      ['level 1.5', insert(element('heading', { level: 1.5 }))],
      ['level as text', insert(element('heading', { level: '2' }))],
      ['level as an object', insert(element('heading', { level: { valueOf: 2 } }))],
      ['a list start past nine digits', insert(element('orderedList', { start: 1e12 }, ''))],
      ['a negative list start', insert(element('orderedList', { start: -1 }, ''))],
      ['a list type outside its five', insert(element('orderedList', { type: 'disc' }, ''))],
      ['checked as text', insert(element('taskItem', { checked: 'yes' }))],
      ['a colspan of a million', insert(element('tableCell', { colspan: 1e6 }))],
      ['an alignment outside left, center, right', insert(element('tableCell', { align: 'justify' }))],
      ['a javascript: image', insert(element('image', { src: 'javascript:alert(1)' }, ''))],
      ['a data: image', insert(element('image', { src: 'data:image/png;base64,AAAA' }, ''))],
      ['a scheme split by a tab', insert(element('image', { src: 'java\tscript:alert(1)' }, ''))],
      ['a 9 KB image URL', insert(element('image', { src: `https://example.com/${'a'.repeat(9000)}` }, ''))],
      ['a 3 KB alt', insert(element('image', { alt: 'a'.repeat(3000) }, ''))],
      ['a code language with a newline', insert(element('codeBlock', { language: 'js\n# injected' }))],
      ['an attribute the paragraph has not', insert(element('paragraph', { textAlign: 'left' }))],
      ['an onclick', insert(element('paragraph', { onclick: 'alert(1)' }))],
      ['an element the editor has not', insert(element('script'))],
      ['a doc inside a page', insert(element('doc'))],
      ['a link to javascript:', formatted({ link: { href: 'javascript:alert(1)' } })],
      ['a link with another attribute', formatted({ link: { href: 'https://example.com', onclick: 'x' } })],
      ['a mark the editor has not', formatted({ color: { value: 'red' } })],
      ['a mark hashed as overlapping', formatted({ 'bold--abcdefgh': {} })],
      ['a mark that is not an object', formatted({ link: 'https://example.com' })],
      ['an attribute on XML text', inText((text) => text.setAttribute('style', 'x'))],
      ['an embed in XML text', inText((text) => text.insertEmbed(0, { image: 'x' }))],
    ];
    for (const [what, update] of cases) expect(updateMisfit(doc, update), what).not.toBeNull();
    // Setting the level of a heading already in the document is checked as well.
    const heading = withPage([{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Hi' }] }]);
    expect(updateMisfit(heading.doc, heading.change((page) => (page.get(0) as Y.XmlElement).setAttribute('level', 300_000_000 as never)))).toMatch(/"level" of a "heading"/);
    expect(updateMisfit(heading.doc, heading.change((page) => (page.get(0) as Y.XmlElement).setAttribute('level', 4 as never)))).toBeNull();
  });

  it('checks every value of an attribute item, as written by hand: [2, 300000000] is refused', () => {
    const { doc } = withPage([{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Hi' }] }]);
    const page = doc.getXmlFragment(`page:${doc.getArray<Y.Map<string>>('pages').get(0).get('id')}`);
    const headingId = (page.get(0) as Y.XmlElement)._item!.id;
    // A Yjs v1 update of one item: ContentAny (8) with a parent key (BIT6), its parent the heading's id.
    const handMade = (values: unknown[]) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1); // clients
      encoding.writeVarUint(e, 1); // structs
      encoding.writeVarUint(e, 4242); // client
      encoding.writeVarUint(e, 0); // clock
      encoding.writeUint8(e, 8 | 32);
      encoding.writeVarUint(e, 0); // the parent is an item's id
      encoding.writeVarUint(e, headingId.client);
      encoding.writeVarUint(e, headingId.clock);
      encoding.writeVarString(e, 'level');
      encoding.writeVarUint(e, values.length);
      for (const value of values) encoding.writeAny(e, value as never);
      encoding.writeVarUint(e, 0); // no deletions
      return encoding.toUint8Array(e);
    };
    expect(updateMisfit(doc, handMade([2]))).toBeNull();
    expect(updateMisfit(doc, handMade([2, 300_000_000]))).toMatch(/"level" of a "heading"/);
  });
});

describe('the editor', () => {
  it('resets what a paste or an input rule makes outside the rules before it reaches the document, and keeps the rest', () => {
    let state = EditorState.create({ schema, plugins: [attributeRulesPlugin()], doc: schema.nodeFromJSON({ type: 'doc', content: [{ type: 'paragraph' }] }) });
    const pasted = [
      { type: 'orderedList', attrs: { start: -3, type: 'disc' }, content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] }] },
      { type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'Nine' }] },
      { type: 'paragraph', content: [{ type: 'text', text: 'bad', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }, { type: 'text', text: 'odd', marks: [{ type: 'link', attrs: { href: 'https://example.com', target: 'elsewhere' } }] }] },
      { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Three' }] },
      { type: 'image', attrs: { src: 'https://example.com/i.png', width: 'auto' } },
    ];
    state = state.apply(state.tr.replaceWith(0, state.doc.content.size, pasted.map((node) => schema.nodeFromJSON(node))));
    const [list, nine, paragraph, three, image] = (state.doc.toJSON() as { content: { attrs?: Record<string, unknown>; content?: { marks?: { attrs: Record<string, unknown> }[] }[] }[] }).content;
    expect(list.attrs).toEqual({ start: 1, type: null });
    expect(nine.attrs?.level).toBe(1);
    expect(paragraph.content?.[0].marks).toBeUndefined();
    expect(paragraph.content?.[1].marks?.[0].attrs).toMatchObject({ href: 'https://example.com', target: '_blank' });
    expect(three.attrs?.level).toBe(3);
    expect(image.attrs).toMatchObject({ src: 'https://example.com/i.png', width: null });
  });
});

/** Blockquotes `depth` deep around one paragraph, at the end of `parent` (one level at a time: Yjs integrates a prepared tree recursively). */
function nest(parent: Y.XmlFragment, depth: number) {
  let inner: Y.XmlFragment = parent;
  for (let i = 0; i < depth; i++) {
    inner.insert(inner.length, [new Y.XmlElement('blockquote')]);
    inner = inner.get(inner.length - 1) as Y.XmlElement;
  }
  inner.insert(0, [element('paragraph', {}, `${depth} deep`)]);
}

/** A room whose document holds, as one stored before the guard could, values no editor writes. */
async function legacyRoom(): Promise<{ roomId: string; pageIds: string[] }> {
  const { id: roomId } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Legacy' } });
  const doc = new Y.Doc();
  const pageIds = [addPage(doc, 'Huge heading', []), addPage(doc, 'Odd values', [])];
  const [first, second] = pageIds.map((id) => doc.getXmlFragment(`page:${id}`));
  first.delete(0, first.length);
  first.insert(0, [element('heading', { level: 300_000_000 }, 'Title'), element('paragraph', {}, 'Body text')]);
  const wideTable = new Y.XmlElement('table');
  const wideRow = new Y.XmlElement('tableRow');
  wideRow.insert(
    0,
    Array.from({ length: 30 }, (_, i) => {
      const cell = new Y.XmlElement('tableCell');
      cell.insert(0, [element('paragraph', {}, `c${i}`)]);
      return cell;
    }),
  );
  wideTable.insert(0, [wideRow, ...Array.from({ length: 300 }, () => new Y.XmlElement('tableRow'))]);
  const link = new Y.XmlText();
  link.insert(0, 'click', { link: { href: 'javascript:alert(1)', target: '_blank' } });
  const linked = new Y.XmlElement('paragraph');
  linked.insert(0, [link]);
  second.delete(0, second.length);
  second.insert(0, [
    element('heading', { level: 2e6 }, 'Second'),
    element('orderedList', { start: 1e300 }, ''),
    element('image', { src: 'javascript:alert(1)', alt: 'a'.repeat(100_000) }, ''),
    element('codeBlock', { language: 'js\n# injected' }, 'code'),
    element('unknownThing', {}, 'left out'),
    linked,
    wideTable,
  ]);
  nest(second, 20);
  nest(second, 5000);
  await db.room.update({ where: { id: roomId }, data: { roomDoc: Buffer.from(Y.encodeStateAsUpdate(doc)) } });
  doc.destroy();
  return { roomId, pageIds };
}

describe('a room stored before the guard', () => {
  it('exports Markdown of its own size, its odd values read as their defaults', async () => {
    const { roomId } = await legacyRoom();
    const answer = await w.call('GET', `/v1/rooms/${roomId}/markdown`, { as: w.people.owner });
    expect(answer.status).toBe(200);
    const markdown = answer.text;
    expect(markdown.length).toBeLessThan(20_000);
    expect(markdown).toContain('\n# Title\n\nBody text');
    expect(markdown).toContain('\n# Second\n');
    expect(markdown).not.toMatch(/#{7}/);
    expect(markdown).not.toContain('javascript:');
    expect(markdown).not.toContain('injected');
    expect(markdown).not.toContain('left out');
    expect(markdown).toContain('\n```\ncode\n```');
    // The table's header spans its 30 columns once; the 300 empty rows are not padded to them.
    expect(markdown.match(/\| --- /g)?.length).toBe(30);
    // Past MAX_DEPTH elements are left out, and with them the quotes left empty.
    expect(MAX_DEPTH).toBeGreaterThan(20);
    expect(markdown).toContain(`\n${'> '.repeat(20)}20 deep`);
    expect(markdown).not.toContain('5000 deep');
    expect(markdown).not.toContain('> '.repeat(21));
  });

  it('builds an app from each of its pages', async () => {
    const { roomId, pageIds } = await legacyRoom();
    for (const pageId of pageIds) {
      const { app } = await w.must(200, 'POST', `/v1/rooms/${roomId}/build`, { as: w.people.owner, body: { pageId } });
      expect(app.build.status, JSON.stringify(app.build)).toBe('succeeded');
    }
  });
});

describe('a socket', () => {
  it('sending an update that sets a heading’s level to 300000000 is ended with 4400, and the update is neither stored nor passed on', async () => {
    const { id: roomId } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Attacked', template: 'notes' } });
    const url = async () => ticketUrl(w, w.people.owner, roomId, 'rooms', origin);
    const watcher = await openRaw(await url(), roomId);
    const hostile = await openRaw(await url(), roomId);
    clients.push(watcher, hostile);
    await waitFor('the first sync', () => hostile.doc.getArray('pages').length > 0);
    const pageId = hostile.doc.getArray<Y.Map<string>>('pages').get(0).get('id');
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(hostile.doc));
    const before = Y.encodeStateVector(copy);
    (copy.getXmlFragment(`page:${pageId}`).get(0) as Y.XmlElement).setAttribute('level', 300_000_000 as never);
    const update = Y.encodeStateAsUpdate(copy, before);
    expect(update.byteLength).toBeLessThan(64);
    const acked = hostile.acked;
    hostile.sendUpdate(update);
    await waitFor('the socket to close', () => hostile.closeCode !== null);
    expect(hostile.closeCode).toBe(4400);
    expect(hostile.acked).toBe(acked);

    // A later edit reaches the watcher and the log; the refused one never did.
    watcher.write('after the attempt');
    while ((await db.roomUpdate.count({ where: { roomId } })) === 0) await new Promise((r) => setTimeout(r, 20));
    const levels = (doc: Y.Doc) => (doc.getXmlFragment(`page:${pageId}`).get(0) as Y.XmlElement).getAttribute('level');
    expect(levels(watcher.doc)).toBe(1);
    const stored = new Y.Doc();
    for (const { update: logged } of await db.roomUpdate.findMany({ where: { roomId } })) Y.applyUpdate(stored, new Uint8Array(logged));
    expect(JSON.stringify(stored.toJSON())).not.toContain('300000000');
    const again = await openRaw(await url(), roomId);
    clients.push(again);
    await waitFor('the good edit on a new socket', () => again.text().includes('after the attempt'));
    expect(levels(again.doc)).toBe(1);
    const markdown = await w.call('GET', `/v1/rooms/${roomId}/markdown`, { as: w.people.owner });
    expect(markdown.status).toBe(200);
    expect(markdown.text).toContain('\n# Meeting notes\n');
    expect(markdown.text.length).toBeLessThan(2000);
  });
});
