// The nodes and marks a room's pages may hold, in one list that the web editor
// (components/rooms/room-editor.tsx) and the server (Markdown export, builds,
// templates: lib/rooms/document.ts) both use, so that what one writes the
// other can read: StarterKit's text blocks, lists and marks, checklists,
// tables and image blocks.
import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';

export const documentExtensions = [
  // Collaboration brings its own undo over Yjs; StarterKit's would fight it.
  StarterKit.configure({ undoRedo: false, link: { openOnClick: false, autolink: true } }),
  TaskList,
  TaskItem.configure({ nested: true }),
  TableKit.configure({ table: { resizable: false } }),
  Image.configure({ inline: false, allowBase64: false }),
];
