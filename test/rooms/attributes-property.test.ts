// A property of the document guard and every reader of a room: any update a
// client can send, built from the editor's element and attribute names and
// others, values of every type, huge numbers, long strings and deep nesting,
// is either refused by the guard or, stored (as a room written before the
// guard could be, whatever the guard says), exports and builds without
// throwing, at a size bounded by MAX_MARKDOWN, and the HTTP export never
// answers 500.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { renderApp } from '@/lib/apps/render.ts';
import { appSpec, outlineSpec } from '@/lib/apps/spec.ts';
import { db } from '@/lib/db/client.ts';
import { updateMisfit } from '@/lib/rooms/document-model.ts';
import { documentMarkdown, initialDocument, MAX_MARKDOWN, pageMarkdown, pagesOf, UNREADABLE_PAGE } from '@/lib/rooms/document.ts';
import { MARK_ATTRIBUTES, NODE_ATTRIBUTES } from '@/lib/rooms/editor-schema.ts';
import { World } from '../http/world.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
let w: World;
let roomId: string;

beforeAll(async () => {
  w = await new World(server.origin, 'atp').build();
  ({ id: roomId } = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug, name: 'Fuzzed' } }));
}, 60_000);

type Tree = { text: string; marks: [string, unknown][] } | { name: string; attributes: [string, unknown][]; children: Tree[] };

const otherName = fc.oneof(fc.constantFrom('textAlign', 'onclick', 'style', '__proto__', 'constructor'), fc.string({ maxLength: 12 }));
/** Mostly the attributes the node or mark has, sometimes others. */
const attributeOf = (rules: Record<string, unknown> | undefined) =>
  rules && Object.keys(rules).length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...Object.keys(rules)) }, { weight: 1, arbitrary: otherName }) : otherName;
// What a format (a mark) may carry: Yjs writes formats as JSON.
const jsonValue = fc.oneof(
  fc.integer(),
  fc.double(),
  { weight: 3, arbitrary: fc.constantFrom(300_000_000, 2e6, 1e300, -1, 0, 1, 6, 7, Number.MAX_SAFE_INTEGER) },
  fc.string({ maxLength: 40 }),
  fc.constantFrom('javascript:alert(1)', ' JaVa\tScRiPt:x', 'data:text/html,x', 'https://example.com/a', '/rel', 'left', '_blank', 'ada', 'a'.repeat(20_000), 'x\n'.repeat(3000)),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 5 }),
  // Spread: fast-check's dictionaries have no prototype, which Yjs cannot store.
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }).map((object) => ({ ...object })),
);
// What an attribute may carry: anything lib0 encodes.
const value = fc.oneof(jsonValue, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constant(undefined), fc.uint8Array({ maxLength: 8 }));
const markValue = fc.oneof(fc.constant({}), fc.record({ href: jsonValue }, { requiredKeys: [] }), fc.dictionary(attributeOf(MARK_ATTRIBUTES.get('link')), jsonValue, { maxKeys: 3 }).map((object) => ({ ...object })), jsonValue);
const elementName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NODE_ATTRIBUTES.keys()) },
  { weight: 1, arbitrary: fc.constantFrom('doc', 'text', 'script', '__proto__', 'constructor') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
);
const { tree } = fc.letrec<{ tree: Tree; text: Tree; element: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, tie('text'), tie('element')),
  text: fc.record({
    text: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('x\n'.repeat(2000), '[a]!\n'.repeat(500), '#'.repeat(100), '|'.repeat(500))),
    marks: fc.array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...MARK_ATTRIBUTES.keys()) }, fc.constantFrom('bold--abcdefgh', 'color'), fc.string({ maxLength: 8 })), markValue), { maxLength: 3 }),
  }),
  element: elementName.chain((name) =>
    fc.record({ name: fc.constant(name), attributes: fc.array(fc.tuple(attributeOf(NODE_ATTRIBUTES.get(name)), value), { maxLength: 3 }), children: fc.array(tie('tree'), { maxLength: 4 }) }),
  ),
}));
const wrappers = fc.array(fc.constantFrom('blockquote', 'bulletList', 'orderedList', 'listItem', 'taskItem', 'tableCell'), { maxLength: 200 });
const onFirstHeading = fc.array(fc.tuple(attributeOf(NODE_ATTRIBUTES.get('heading')), value), { maxLength: 2 });

const paragraph = (text: string): Tree => ({ name: 'paragraph', attributes: [], children: [{ text, marks: [] }] });

/** Adds `tree` at the end of `parent`, one item at a time (as an editor's steps, and without Yjs's recursive integration). */
function place(parent: Y.XmlFragment, tree: Tree) {
  if ('text' in tree) {
    const text = new Y.XmlText();
    parent.insert(parent.length, [text]);
    text.insert(0, tree.text, Object.fromEntries(tree.marks) as never);
    return;
  }
  const element = new Y.XmlElement(tree.name);
  parent.insert(parent.length, [element]);
  for (const [name, attribute] of tree.attributes) element.setAttribute(name, attribute as never);
  for (const child of tree.children) place(element, child);
}

const base = initialDocument('notes', null).state;

describe('any update a client sends', () => {
  it('is refused by the guard, or stored it exports and builds without throwing, bounded, and the HTTP export never answers 500', async () => {
    let accepted = 0;
    let largest = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(tree, { maxLength: 4 }), wrappers, onFirstHeading, async (trees, around, headingAttributes) => {
        const server = new Y.Doc();
        Y.applyUpdate(server, base);
        const client = new Y.Doc();
        Y.applyUpdate(client, base);
        const before = Y.encodeStateVector(client);
        const page = client.getXmlFragment(`page:${pagesOf(client)[0].id}`);
        for (const [name, attribute] of headingAttributes) (page.get(0) as Y.XmlElement).setAttribute(name, attribute as never);
        let inner: Y.XmlFragment = page;
        for (const name of around) {
          inner.insert(inner.length, [new Y.XmlElement(name)]);
          inner = inner.get(inner.length - 1) as Y.XmlElement;
        }
        for (const t of trees) place(inner, t);
        const update = Y.encodeStateAsUpdate(client, before);

        const refused = updateMisfit(server, update) !== null;
        if (!refused) accepted++;
        // Stored whatever the guard says, as a room written before it could be.
        Y.applyUpdate(server, update);
        const state = Y.encodeStateAsUpdate(server);
        const markdown = documentMarkdown(state, 'Fuzzed');
        largest = Math.max(largest, markdown.length);
        // Cut at MAX_MARKDOWN; below it, a byte writes at most a line's indent 16 ordered lists deep (MAX_DEPTH).
        expect(markdown.length).toBeLessThan(Math.min(MAX_MARKDOWN + state.byteLength, 400 * state.byteLength) + 10_000);
        for (const { id, title } of pagesOf(server)) {
          const pageText = pageMarkdown(server, id);
          if (!refused) expect(pageText).not.toBe(UNREADABLE_PAGE);
          const spec = outlineSpec(pageText, title);
          if (appSpec.safeParse(spec).success) expect(renderApp(spec).reduce((sum, file) => sum + file.content.byteLength, 0)).toBeLessThan(4 * pageText.length + 100_000);
        }

        await db.room.update({ where: { id: roomId }, data: { roomDoc: Buffer.from(state) } });
        const answer = await w.call('GET', `/v1/rooms/${roomId}/markdown`, { as: w.people.owner });
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(markdown);
      }),
      {
        numRuns: 60,
        // What the editor writes, so that every run reaches past the guard, whatever the random ones draw.
        examples: [
          [[], [], []],
          [[paragraph('hello')], [], []],
          [[{ name: 'heading', attributes: [['level', 2]], children: [{ text: 'Title', marks: [['bold', {}]] }] }], [], [['level', 3]]],
          [[paragraph('quoted')], ['blockquote'], []],
        ],
      },
    );
    // The runs reach past the guard too (the editor's own names and values), not only its refusals.
    expect(accepted).toBeGreaterThan(3);
    expect(largest).toBeGreaterThan(0);
  }, 120_000);
});
