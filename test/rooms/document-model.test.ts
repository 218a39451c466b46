// The document model's guard (lib/rooms/document-model.ts): updates that the
// web editor makes fit; updates that put another type where the model has one
// do not, whatever their shape; a mention holds only a user id and a handle.
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { initialDocument, pageMarkdown, schema } from '@/lib/rooms/document.ts';
import { updateMisfit } from '@/lib/rooms/document-model.ts';

/** A server copy of a new room and a client copy synced from it. */
function pair() {
  const server = new Y.Doc();
  Y.applyUpdate(server, initialDocument(null, null).state);
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  const pageId = String(client.getArray<Y.Map<string>>('pages').get(0).get('id'));
  return { server, client, pageId };
}

/** What `change` does to the client, as the update a socket would carry. */
function updateOf(client: Y.Doc, change: () => void): Uint8Array {
  const before = Y.encodeStateVector(client);
  change();
  return Y.encodeStateAsUpdate(client, before);
}

describe('the document model guard', () => {
  it('lets the editor’s own changes through: typing, formatting, headings and their level, new and renamed pages, deletions', () => {
    const { server, client, pageId } = pair();
    const fragment = client.getXmlFragment(`page:${pageId}`);
    const steps: (() => void)[] = [
      () => {
        const paragraph = new Y.XmlElement('paragraph');
        paragraph.insert(0, [new Y.XmlText('Hello')]);
        fragment.insert(fragment.length, [paragraph]);
      },
      () => ((fragment.get(fragment.length - 1) as Y.XmlElement).get(0) as Y.XmlText).insert(5, ' world', { bold: {} }),
      () => {
        const heading = new Y.XmlElement('heading');
        heading.insert(0, [new Y.XmlText('Plan')]);
        fragment.insert(fragment.length, [heading]);
      },
      () => (fragment.get(fragment.length - 1) as Y.XmlElement).setAttribute('level', 3 as never),
      () => {
        const page = new Y.Map<string>();
        page.set('id', 'p2');
        page.set('title', 'Second');
        client.getArray('pages').push([page]);
        client.getXmlFragment('page:p2').insert(0, [new Y.XmlElement('heading')]);
      },
      () => client.getArray<Y.Map<string>>('pages').get(1).set('title', 'Renamed'),
      () => client.getArray('pages').delete(1, 1),
      () => fragment.delete(0, 1),
    ];
    for (const step of steps) {
      const update = updateOf(client, step);
      expect(updateMisfit(server, update)).toBeNull();
      Y.applyUpdate(server, update);
    }
  });

  it('checks a long run of typing in one update quickly', () => {
    const { server, client, pageId } = pair();
    const paragraph = new Y.XmlElement('paragraph');
    const text = new Y.XmlText('');
    const update = updateOf(client, () => {
      paragraph.insert(0, [text]);
      client.getXmlFragment(`page:${pageId}`).insert(0, [paragraph]);
    });
    Y.applyUpdate(server, update);
    // Each keystroke its own transaction, as typing is (and from two clients, so they do not merge): a chain of 5,000 neighbours.
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(client));
    const otherText = (other.getXmlFragment(`page:${pageId}`).get(0) as Y.XmlElement).get(0) as Y.XmlText;
    for (let i = 0; i < 5_000; i++) {
      const [doc, target] = i % 2 ? [other, otherText] : [client, text];
      const before = Y.encodeStateVector(doc === client ? other : client);
      target.insert(target.length, 'a');
      Y.applyUpdate(doc === client ? other : client, Y.encodeStateAsUpdate(doc, before));
    }
    const typed = Y.encodeStateAsUpdate(client, Y.encodeStateVector(server));
    const started = performance.now();
    expect(updateMisfit(server, typed)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses another type where the model has one, and things it has no place for', () => {
    const { server, pageId } = pair();
    const hostile = (change: (doc: Y.Doc) => void) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(server));
      return updateOf(doc, () => change(doc));
    };
    const cases: [string, Uint8Array][] = [
      ['a Y.Text as a page', hostile((d) => d.getText(`page:${pageId}`).insert(0, 'plain text'))],
      ['a string in pages', hostile((d) => d.getArray('pages').push(['not a map']))],
      ['a Y.Text in pages', hostile((d) => d.getArray('pages').push([new Y.Text('x')]))],
      ['another root', hostile((d) => d.getMap('settings').set('x', 1))],
      ['another key on a page', hostile((d) => d.getArray<Y.Map<unknown>>('pages').get(0).set('script', 'x'))],
      ['a title that is not text', hostile((d) => d.getArray<Y.Map<unknown>>('pages').get(0).set('title', { a: 1 }))],
      ['a map in a page', hostile((d) => d.getXmlFragment(`page:${pageId}`).insert(0, [new Y.Map() as never]))],
      ['a sub-document', hostile((d) => d.getArray('pages').push([new Y.Doc() as never]))],
      ['an odd page name', hostile((d) => d.getXmlFragment('page:../../x').insert(0, [new Y.XmlElement('p')]))],
    ];
    for (const [what, update] of cases) expect(updateMisfit(server, update), what).not.toBeNull();
    expect(updateMisfit(server, new Uint8Array([1, 2, 3, 255, 255]))).not.toBeNull();
  });

  it('lets a mention through as the editor writes it, and the export shows @handle', () => {
    const { server, client, pageId } = pair();
    const page = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Ask ' }, { type: 'mention', attrs: { id: 'usr_1', handle: 'ada-l' } }, { type: 'text', text: ' first' }] }] };
    const update = updateOf(client, () => prosemirrorJSONToYXmlFragment(schema, page, client.getXmlFragment(`page:${pageId}`)));
    expect(updateMisfit(server, update)).toBeNull();
    Y.applyUpdate(server, update);
    expect(pageMarkdown(server, pageId).trim()).toBe('Ask @ada-l first');
  });

  it('refuses a mention holding anything but a user id and a handle', () => {
    const { server, pageId } = pair();
    const mentionIn = (fill: (mention: Y.XmlElement) => void) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(server));
      return updateOf(doc, () => {
        const paragraph = doc.getXmlFragment(`page:${pageId}`).get(0) as Y.XmlElement;
        const mention = new Y.XmlElement('mention');
        paragraph.insert(0, [mention]);
        fill(mention);
      });
    };
    const cases: [string, Uint8Array][] = [
      ['text inside', mentionIn((m) => m.insert(0, [new Y.XmlText('@ada')]))],
      ['an element inside', mentionIn((m) => m.insert(0, [new Y.XmlElement('paragraph')]))],
      ['another attribute', mentionIn((m) => m.setAttribute('onclick', 'alert(1)'))],
      ['a handle that is not one', mentionIn((m) => m.setAttribute('handle', 'Ada Lovelace'))],
      ['an id that is not text', mentionIn((m) => m.setAttribute('id', 7 as never))],
      ['an empty id', mentionIn((m) => m.setAttribute('id', ''))],
    ];
    for (const [what, update] of cases) expect(updateMisfit(server, update), what).not.toBeNull();
    expect(updateMisfit(server, mentionIn((m) => (m.setAttribute('id', 'usr_1'), m.setAttribute('handle', 'ada'))))).toBeNull();
  });
});
