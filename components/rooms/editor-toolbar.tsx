'use client';
// The room editor's toolbar: text blocks, lists, checklists, code, quotes,
// tables, links and (in live spaces) images. Each button says what it does
// and shows whether it is on where the cursor is. The slash menu opens the
// link field and the image picker through the handle.
import type { Editor } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import { useImperativeHandle, useRef, useState, type Ref } from 'react';

export type EditorToolbarHandle = { link: () => void; images: () => void };

type Props = { editor: Editor; onImages: ((files: File[]) => void) | null; ref?: Ref<EditorToolbarHandle> };

const button = 'inline-flex items-center gap-1 rounded px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-40 aria-pressed:bg-indigo-100 aria-pressed:text-indigo-900 dark:hover:bg-slate-800 dark:aria-pressed:bg-indigo-900 dark:aria-pressed:text-indigo-100';

export function EditorToolbar({ editor, onImages, ref }: Props) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      tasks: e.isActive('taskList'),
      code: e.isActive('codeBlock'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      table: e.isActive('table'),
    }),
  });
  const picker = useRef<HTMLInputElement>(null);
  const [linking, setLinking] = useState<string | null>(null);
  const chain = () => editor.chain().focus();
  const editLink = () => setLinking(editor.getAttributes('link').href ?? 'https://');
  useImperativeHandle(ref, () => ({ link: editLink, images: () => picker.current?.click() }));
  // Each button shows a drawn icon and a word, and its name is that word (or starts with it), so
  // saying what one sees works (voice control); the title says it to a mouse too.
  const tools: { label: string; text: string; icon?: string; on: boolean; run: () => void }[] = [
    { label: 'H2 Heading', text: 'H2', on: state.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { label: 'H3 Subheading', text: 'H3', on: state.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { label: 'List (bulleted)', text: 'List', icon: 'M6 4h7.5M6 8h7.5M6 12h7.5M2.75 4h.01M2.75 8h.01M2.75 12h.01', on: state.bullets, run: () => chain().toggleBulletList().run() },
    { label: 'Numbered list', text: 'Numbered', icon: 'M6.5 4h7M6.5 8h7M6.5 12h7M2.5 2.75l1-.5v3.5M2.25 9.5a1 1 0 0 1 1.75.6c0 .9-1.75 1.4-1.75 2.4H4', on: state.numbers, run: () => chain().toggleOrderedList().run() },
    { label: 'Checklist', text: 'Checklist', icon: 'M2.5 2.5h4v4h-4zM3.5 4.5l.9.9 1.4-1.9M8.5 4.5h5M2.5 9.5h4v4h-4zM8.5 11.5h5', on: state.tasks, run: () => chain().toggleTaskList().run() },
    { label: 'Code block', text: 'Code', icon: 'M5.5 4.5 2 8l3.5 3.5M10.5 4.5 14 8l-3.5 3.5', on: state.code, run: () => chain().toggleCodeBlock().run() },
    { label: 'Quote', text: 'Quote', icon: 'M3 3v10M6 5h7M6 8h7M6 11h5', on: state.quote, run: () => chain().toggleBlockquote().run() },
    { label: 'Table', text: 'Table', icon: 'M2.5 2.5h11v11h-11zM2.5 6.5h11M2.5 10h11M6.5 6.5v7M10 6.5v7', on: state.table, run: () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
  ];
  return (
    <div role="toolbar" aria-label="Formatting" className="mb-2 flex flex-wrap items-center gap-1 rounded-md border border-line p-1">
      {tools.map((tool) => (
        <button key={tool.label} type="button" className={button} aria-label={tool.label} title={tool.label} aria-pressed={tool.on} onClick={tool.run}>
          {tool.icon ? <Icon d={tool.icon} /> : null}
          {tool.text}
        </button>
      ))}
      <button
        type="button"
        className={button}
        aria-label="Link"
        title="Link"
        aria-pressed={state.link}
        onClick={() => (state.link ? chain().unsetLink().run() : editLink())}
      >
        <Icon d="M6.5 9.5a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-.8.8M9.5 6.5a3 3 0 0 0-4.2 0L3 8.8a3 3 0 0 0 4.2 4.2l.8-.8" />
        Link
      </button>
      {onImages ? (
        <>
          <button type="button" className={button} aria-label="Image" title="Image (or paste or drop one)" onClick={() => picker.current?.click()}>
            <Icon d="M2.5 3.5h11v9h-11zM2.5 10.5l3-3 3 3 2-2 3 3M10 6.25h.01" />
            Image
          </button>
          <input
            ref={picker}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
            multiple
            hidden
            aria-label="Choose images"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              if (files.length) onImages(files);
            }}
          />
        </>
      ) : null}
      {linking !== null ? (
        <form
          className="flex items-center gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            const href = linking.trim();
            setLinking(null);
            if (!/^(https?:|mailto:)/i.test(href)) return;
            // With nothing selected the address itself becomes the link's text.
            if (editor.state.selection.empty && !state.link) chain().insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
            else chain().extendMarkRange('link').setLink({ href }).run();
          }}
        >
          <label className="sr-only" htmlFor="editor-link">
            Link address
          </label>
          <input
            id="editor-link"
            autoFocus
            value={linking}
            onChange={(event) => setLinking(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return;
              setLinking(null);
              editor.commands.focus();
            }}
            className="w-48 rounded border border-slate-300 px-2 py-0.5 text-sm dark:border-slate-600 dark:bg-slate-900"
          />
          <button type="submit" className={button}>
            Set link
          </button>
        </form>
      ) : null}
    </div>
  );
}

/** Drawn, not an emoji: pictographs are missing from many systems' fonts and ignore the theme's colour. */
function Icon({ d }: { d: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  );
}
