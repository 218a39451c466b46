import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';

/**
 * Inserts an image block after the selection, never over it, and puts the
 * cursor in the text after it (a new empty paragraph when none follows). An
 * inserted image used to stay selected, so the next paste or the toolbar's
 * Image button replaced it. `at` is a drop's position.
 */
export function insertImage(state: EditorState, attrs: { src: string; alt: string }, at?: number): Transaction {
  const tr = state.tr;
  const image = state.schema.nodes.image.create(attrs);
  tr.replaceRangeWith(at ?? state.selection.to, at ?? state.selection.to, image);
  // Where the image ended up (a paragraph may have been split around it): in the last step's inserted range.
  let end = 0;
  tr.mapping.maps[tr.mapping.maps.length - 1].forEach((_from, _to, newFrom, newTo) =>
    tr.doc.nodesBetween(newFrom, newTo, (node, pos) => {
      if (node === image) end = pos + node.nodeSize;
    }),
  );
  if (!tr.doc.resolve(end).nodeAfter?.isTextblock) tr.insert(end, state.schema.nodes.paragraph.create());
  return tr.setSelection(TextSelection.create(tr.doc, end + 1)).scrollIntoView();
}
