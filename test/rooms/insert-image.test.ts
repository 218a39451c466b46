// The editor's image insertion (paste, drop, the toolbar's Image button),
// applied to editor states of the room schema: a second image goes after the
// first instead of replacing it, and typing goes below the image.
import { EditorState, NodeSelection, TextSelection } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { insertImage } from '@/components/rooms/insert-image.ts';
import { schema } from '@/lib/rooms/document.ts';

const paragraph = (text?: string) => schema.nodes.paragraph.create(null, text ? schema.text(text) : null);
const image = (src: string) => schema.nodes.image.create({ src, alt: src });
const images = (state: EditorState) => {
  const found: string[] = [];
  state.doc.descendants((node) => void (node.type.name === 'image' && found.push(node.attrs.src)));
  return found;
};
const apply = (state: EditorState, src: string, at?: number) => state.apply(insertImage(state, { src, alt: src }, at));
const typeText = (state: EditorState, text: string) => state.apply(state.tr.insertText(text));

describe('inserting an image', () => {
  it('twice in a row keeps both, in order, and leaves the cursor in a paragraph below', () => {
    let state = EditorState.create({ schema, doc: schema.nodes.doc.create(null, [paragraph()]) });
    state = apply(state, 'https://a.example/1.png');
    expect(state.selection).toBeInstanceOf(TextSelection);
    state = apply(state, 'https://a.example/2.png');
    expect(images(state)).toEqual(['https://a.example/1.png', 'https://a.example/2.png']);
    state = typeText(state, 'caption');
    expect(state.doc.lastChild?.textContent).toBe('caption');
    expect(images(state)).toHaveLength(2);
  });

  it('goes after a selected image, never over it', () => {
    const doc = schema.nodes.doc.create(null, [paragraph('before'), image('https://a.example/old.png'), paragraph('after')]);
    const selected = EditorState.create({ schema, doc, selection: NodeSelection.create(doc, doc.child(0).nodeSize) });
    const state = apply(selected, 'https://a.example/new.png');
    expect(images(state)).toEqual(['https://a.example/old.png', 'https://a.example/new.png']);
    expect(state.doc.textContent).toBe('beforeafter');
    // The cursor is at the start of the paragraph that followed.
    expect(state.selection.$from.parent.textContent).toBe('after');
  });

  it('splits a paragraph at the cursor and keeps the text on both sides', () => {
    const doc = schema.nodes.doc.create(null, [paragraph('left right')]);
    const state = apply(EditorState.create({ schema, doc, selection: TextSelection.create(doc, 5) }), 'https://a.example/mid.png');
    expect(state.doc.childCount).toBe(3);
    expect(state.doc.child(0).textContent).toBe('left');
    expect(state.doc.child(1).type.name).toBe('image');
    expect(state.doc.child(2).textContent).toBe(' right');
  });
});
