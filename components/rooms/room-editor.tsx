'use client';

import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { documentExtensions } from '@/lib/rooms/editor-schema.ts';
import { uploadBytes } from '@/lib/web/upload.ts';
import { AiSuggest, type AiSuggestHandle } from './ai-suggest.tsx';
import { EditorToolbar } from './editor-toolbar.tsx';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];
const imagesIn = (files: FileList | null | undefined) => [...(files ?? [])].filter((file) => IMAGE_TYPES.includes(file.type));

/**
 * One page of the room's document in Tiptap, bound to the page's fragment
 * (`page:<id>`) with everyone's carets, and a toolbar. The editor is rebuilt
 * when the page changes, since Collaboration binds one fragment for its
 * lifetime. With `imagesPath` (live spaces) images chosen, pasted or dropped
 * are uploaded there, with progress, and placed as image blocks.
 */
export function RoomEditor({
  doc,
  provider,
  pageId,
  pageTitle,
  user,
  editable,
  aiSuggest = false,
  imagesPath = null,
}: {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  pageId: string;
  pageTitle: string;
  user: { name: string; color: string };
  editable: boolean;
  /** Offer AI suggestions: the server has AI, the room has aiSuggest on and this person edits. */
  aiSuggest?: boolean;
  /** Where this document's images are uploaded (POST), or null where it takes none. */
  imagesPath?: string | null;
}) {
  const suggest = useRef<AiSuggestHandle>(null);
  const [upload, setUpload] = useState<{ name: string; percent: number } | { error: string } | null>(null);
  const editorRef = useRef<Editor | null>(null);
  const addImages = useCallback(
    async (files: File[], at?: number) => {
      const current = editorRef.current;
      if (!imagesPath || !current) return;
      for (const file of files) {
        setUpload({ name: file.name, percent: 0 });
        try {
          const image = await uploadBytes<{ url: string }>('POST', imagesPath, file, (sent, total) => setUpload({ name: file.name, percent: Math.round((sent / Math.max(total, 1)) * 100) }));
          const node = { type: 'image', attrs: { src: image.url, alt: file.name.replace(/\.[^.]+$/, '') } };
          if (at === undefined) current.chain().focus().insertContent(node).run();
          else current.chain().insertContentAt(at, node).run();
        } catch (error) {
          setUpload({ error: `${file.name}: ${(error as Error).message}` });
          return;
        }
      }
      setUpload(null);
    },
    [imagesPath],
  );
  const editor = useEditor(
    {
      immediatelyRender: false,
      editable,
      extensions: [
        ...documentExtensions,
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
        handlePaste: (_view, event) => {
          const files = imagesIn(event.clipboardData?.files);
          if (!imagesPath || !files.length) return false;
          void addImages(files);
          return true;
        },
        handleDrop: (view, event) => {
          const files = imagesIn(event.dataTransfer?.files);
          if (!imagesPath || !files.length) return false;
          event.preventDefault();
          void addImages(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
          return true;
        },
      },
    },
    [doc, provider, pageId],
  );
  editorRef.current = editor;

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
      {editable && editor ? <EditorToolbar editor={editor} onImages={imagesPath ? (files) => void addImages(files) : null} /> : null}
      {upload ? (
        'error' in upload ? (
          <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-300">
            Could not add {upload.error}
          </p>
        ) : (
          <p role="status" className="mb-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            Uploading {upload.name}… <progress max={100} value={upload.percent} aria-label={`Uploading ${upload.name}`} /> {upload.percent}%
          </p>
        )
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}
