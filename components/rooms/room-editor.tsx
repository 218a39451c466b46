'use client';

import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';
import type * as Y from 'yjs';
import { AiSuggest, type AiSuggestHandle } from './ai-suggest.tsx';

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
  aiSuggest = false,
}: {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  pageId: string;
  pageTitle: string;
  user: { name: string; color: string };
  editable: boolean;
  /** Offer AI suggestions: the server has AI, the room has aiSuggest on and this person edits. */
  aiSuggest?: boolean;
}) {
  const suggest = useRef<AiSuggestHandle>(null);
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
    <div
      onKeyDown={(event) => {
        if (aiSuggest && editable && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'j') {
          event.preventDefault();
          suggest.current?.ask();
        }
      }}
    >
      {aiSuggest && editable ? <AiSuggest ref={suggest} editor={editor} provider={provider} pageId={pageId} /> : null}
      {editable ? null : <p className="mb-2 text-xs text-slate-500">Read only: your role lets you view this document, not change it.</p>}
      <EditorContent editor={editor} />
    </div>
  );
}
