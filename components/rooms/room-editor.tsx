'use client';

import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import type { ChainedCommands } from '@tiptap/core';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { documentExtensions } from '@/lib/rooms/editor-schema.ts';
import { web } from '@/lib/web/api-client.ts';
import { uploadBytes } from '@/lib/web/upload.ts';
import { AiSuggest, type AiSuggestHandle } from './ai-suggest.tsx';
import { EditorMenu, matching, useEditorMenus, type MenuItem } from './editor-menus.tsx';
import { EditorToolbar, type EditorToolbarHandle } from './editor-toolbar.tsx';
import { insertImage } from './insert-image.ts';
import { KIND, type RoomKindName } from './kinds.ts';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];
const imagesIn = (files: FileList | null | undefined) => [...(files ?? [])].filter((file) => IMAGE_TYPES.includes(file.type));

type Person = { id: string; handle: string; name: string | null };

/** The slash menu's blocks; each replaces the typed "/…". Their hints, matched too, are mostly the Markdown for the block. */
function blockItems(toolbar: EditorToolbarHandle | null, images: boolean): MenuItem[] {
  const block = (key: string, label: string, hint: string, make: (chain: ChainedCommands) => ChainedCommands): MenuItem => ({
    key,
    label,
    hint,
    choose: (editor, range) => make(editor.chain().focus().deleteRange(range)).run(),
  });
  const viaToolbar = (key: string, label: string, hint: string, open: (handle: EditorToolbarHandle) => void): MenuItem => ({
    key,
    label,
    hint,
    choose: (editor, range) => {
      editor.chain().focus().deleteRange(range).run();
      if (toolbar) open(toolbar);
    },
  });
  return [
    block('h1', 'Heading 1', '#', (chain) => chain.setNode('heading', { level: 1 })),
    block('h2', 'Heading 2', '##', (chain) => chain.setNode('heading', { level: 2 })),
    block('h3', 'Heading 3', '###', (chain) => chain.setNode('heading', { level: 3 })),
    block('bullets', 'Bulleted list', '-', (chain) => chain.toggleBulletList()),
    block('numbers', 'Numbered list', '1.', (chain) => chain.toggleOrderedList()),
    block('tasks', 'Checklist', '[ ]', (chain) => chain.toggleTaskList()),
    block('code', 'Code block', '```', (chain) => chain.setCodeBlock()),
    block('quote', 'Quote', '>', (chain) => chain.setBlockquote()),
    block('table', 'Table', '3 × 3', (chain) => chain.insertTable({ rows: 3, cols: 3, withHeaderRow: true })),
    block('divider', 'Divider', '---', (chain) => chain.setHorizontalRule()),
    viaToolbar('link', 'Link', 'https://', (handle) => handle.link()),
    ...(images ? [viaToolbar('image', 'Image', 'upload', (handle) => handle.images())] : []),
  ];
}

/**
 * One page of the room's document in Tiptap, bound to the page's fragment
 * (`page:<id>`) with everyone's carets, a toolbar, a slash menu of blocks and
 * @mentions of the room's people (each mention asks the API to tell the
 * person). The editor is rebuilt when the page changes, since Collaboration
 * binds one fragment for its lifetime. With `imagesPath` (live spaces) images
 * chosen, pasted or dropped are uploaded there, with progress, and placed as
 * image blocks.
 */
export function RoomEditor({
  kind,
  roomId,
  people,
  doc,
  provider,
  pageId,
  pageTitle,
  user,
  editable,
  aiSuggest = false,
  imagesPath = null,
}: {
  kind: RoomKindName;
  roomId: string;
  /** Who can be mentioned: the room's people. */
  people: Person[];
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
  const toolbar = useRef<EditorToolbarHandle>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { shown, menu, choose } = useEditorMenus();
  // The mention menu reads the list when the query changes; the editor is not rebuilt for it.
  const peopleRef = useRef(people);
  peopleRef.current = people;
  const mention = useCallback(
    (editor: Editor, range: { from: number; to: number }, person: Person) => {
      editor.chain().focus().insertContentAt(range, [{ type: 'mention', attrs: { id: person.id, handle: person.handle } }, { type: 'text', text: ' ' }]).run();
      setNotice(null);
      web.call(KIND[kind].api.mention, { params: { id: roomId }, body: { handle: person.handle, pageId } }).catch((error: Error) => setNotice(`Could not tell @${person.handle}: ${error.message}`));
    },
    [kind, roomId, pageId],
  );
  const addImages = useCallback(
    async (files: File[], at?: number) => {
      const current = editorRef.current;
      if (!imagesPath || !current) return;
      // A drop's position takes the first file; the others go one below the other.
      let position = at;
      for (const file of files) {
        setUpload({ name: file.name, percent: 0 });
        try {
          const image = await uploadBytes<{ url: string }>('POST', imagesPath, file, (sent, total) => setUpload({ name: file.name, percent: Math.round((sent / Math.max(total, 1)) * 100) }));
          current.view.dispatch(insertImage(current.state, { src: image.url, alt: file.name.replace(/\.[^.]+$/, '') }, position));
          if (position === undefined) current.commands.focus();
          position = undefined;
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
        // Shown only while the page is empty and only to those who may write in it.
        Placeholder.configure({ placeholder: 'Write here; type / for headings, lists and tables, or @ to mention someone' }),
        menu('slashMenu', '/', (query) => matching(blockItems(toolbar.current, Boolean(imagesPath)), query)),
        menu('mentionMenu', '@', (query) =>
          matching(
            peopleRef.current.map((person) => ({ key: person.id, label: person.name || `@${person.handle}`, hint: person.name ? `@${person.handle}` : undefined, choose: (editor, range) => mention(editor, range, person) })),
            query,
          ),
        ),
      ],
      editorProps: {
        attributes: {
          class: 'room-editor prose-room min-h-[24rem] rounded-md border border-line p-4 focus:outline-none focus:ring-2 focus:ring-brand',
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
    [doc, provider, pageId, menu, mention],
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
      {editable ? null : <p className="mb-2 text-xs text-muted">Read only: your role lets you view this document, not change it.</p>}
      {editable && editor ? <EditorToolbar ref={toolbar} editor={editor} onImages={imagesPath ? (files) => void addImages(files) : null} /> : null}
      {notice ? (
        <p role="alert" className="mb-2 text-sm text-danger">
          {notice}
        </p>
      ) : null}
      {upload ? (
        'error' in upload ? (
          <p role="alert" className="mb-2 text-sm text-danger">
            Could not add {upload.error}
          </p>
        ) : (
          <p role="status" className="mb-2 flex items-center gap-2 text-sm text-muted">
            Uploading {upload.name}… <progress max={100} value={upload.percent} aria-label={`Uploading ${upload.name}`} /> {upload.percent}%
          </p>
        )
      ) : null}
      <EditorContent editor={editor} />
      {editor && shown ? <EditorMenu editor={editor} shown={shown} label={shown.name === 'mentionMenu' ? 'People' : 'Blocks'} choose={choose} /> : null}
    </div>
  );
}
