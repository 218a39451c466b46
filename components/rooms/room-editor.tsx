'use client';

import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import type * as Y from 'yjs';

/**
 * One page of the room's document in Tiptap, bound to the page's fragment
 * (`page:<id>`) with everyone's carets. The editor is rebuilt when the page
 * changes, since Collaboration binds one fragment for its lifetime.
 */
export function RoomEditor({
  doc,
  provider,
  pageId,
  pageTitle,
  user,
  editable,
}: {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  pageId: string;
  pageTitle: string;
  user: { name: string; color: string };
  editable: boolean;
}) {
  const editor = useEditor(
    {
      immediatelyRender: false,
      editable,
      extensions: [
        // Collaboration brings its own undo over Yjs; StarterKit's would fight it.
        StarterKit.configure({ undoRedo: false }),
        Collaboration.configure({ document: doc, field: `page:${pageId}` }),
        CollaborationCaret.configure({ provider, user }),
      ],
      editorProps: {
        attributes: {
          class: 'room-editor prose-room min-h-[24rem] rounded-md border border-slate-200 p-4 focus:outline-none focus:ring-2 focus:ring-brand',
          'aria-label': `Page ${pageTitle}`,
          role: 'textbox',
          'aria-multiline': 'true',
        },
      },
    },
    [doc, provider, pageId],
  );

  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  useEffect(() => {
    provider.awareness?.setLocalStateField('page', pageId);
  }, [provider, pageId]);

  return (
    <div>
      {editable ? null : <p className="mb-2 text-xs text-slate-500">Read only: your role lets you view this document, not change it.</p>}
      <EditorContent editor={editor} />
    </div>
  );
}
