// The nodes and marks a room's pages may hold, in one list that the web editor
// (components/rooms/room-editor.tsx) and the server (Markdown export, builds,
// templates: lib/rooms/document.ts) both use, so that what one writes the
// other can read: StarterKit's text blocks, lists and marks, checklists,
// tables, image blocks and @mentions of the room's people.
import { mergeAttributes, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';

/**
 * An @mention of one of the room's people: an inline atom holding their user
 * id and handle, shown as a pill `@handle`. The id keeps it theirs if they
 * change their handle; the handle is what readers and the export see.
 */
export const Mention = Node.create({
  name: 'mention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  addAttributes() {
    return {
      id: { default: null, parseHTML: (element) => element.getAttribute('data-id'), renderHTML: (attributes) => ({ 'data-id': attributes.id }) },
      handle: { default: null, parseHTML: (element) => element.getAttribute('data-handle'), renderHTML: (attributes) => ({ 'data-handle': attributes.handle }) },
    };
  },
  parseHTML: () => [{ tag: 'span[data-mention]' }],
  renderHTML: ({ node, HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes, { 'data-mention': '', class: 'mention' }), `@${node.attrs.handle}`],
  renderText: ({ node }) => `@${node.attrs.handle}`,
});

export const documentExtensions = [
  // Collaboration brings its own undo over Yjs; StarterKit's would fight it.
  StarterKit.configure({ undoRedo: false, link: { openOnClick: false, autolink: true } }),
  TaskList,
  TaskItem.configure({ nested: true }),
  TableKit.configure({ table: { resizable: false } }),
  Image.configure({ inline: false, allowBase64: false }),
  Mention,
];
