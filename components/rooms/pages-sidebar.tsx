'use client';

import { useEffect, useState } from 'react';
import * as Y from 'yjs';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { newPageId } from './connection.ts';

export type PageEntry = { id: string; title: string };

const PAGES = 'pages';

function read(doc: Y.Doc): PageEntry[] {
  return doc
    .getArray<Y.Map<string>>(PAGES)
    .toArray()
    .map((m) => ({ id: String(m.get('id')), title: String(m.get('title') ?? 'Untitled') }));
}

/** The document's pages, live: every change anyone makes to the list shows at once. */
export function usePages(doc: Y.Doc | null): PageEntry[] {
  const [pages, setPages] = useState<PageEntry[]>([]);
  useEffect(() => {
    if (!doc) return;
    const array = doc.getArray<Y.Map<string>>(PAGES);
    const update = () => setPages(read(doc));
    update();
    array.observeDeep(update);
    return () => array.unobserveDeep(update);
  }, [doc]);
  return pages;
}

function indexOf(doc: Y.Doc, id: string) {
  return read(doc).findIndex((p) => p.id === id);
}

/** The pages of the room in order; editors add, rename, move and remove them (in the shared document itself). */
export function PagesSidebar({
  doc,
  pages,
  current,
  onSelect,
  editable,
  here,
}: {
  doc: Y.Doc;
  pages: PageEntry[];
  current: string | null;
  onSelect: (id: string) => void;
  editable: boolean;
  here: Record<string, { name: string; color: string }[]>;
}) {
  const confirm = useConfirm();
  const [renaming, setRenaming] = useState<string | null>(null);
  const array = doc.getArray<Y.Map<string>>(PAGES);

  function add() {
    const id = newPageId();
    doc.transact(() => {
      const page = new Y.Map<string>();
      page.set('id', id);
      page.set('title', `Page ${pages.length + 1}`);
      array.push([page]);
    });
    onSelect(id);
  }

  function rename(id: string, title: string) {
    const i = indexOf(doc, id);
    if (i >= 0 && title.trim()) array.get(i).set('title', title.trim().slice(0, 100));
    setRenaming(null);
  }

  function move(id: string, by: -1 | 1) {
    const i = indexOf(doc, id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= array.length) return;
    doc.transact(() => {
      const { id: pid, title } = read(doc)[i];
      array.delete(i, 1);
      // A moved page is a new map with the same id: its content fragment is keyed by id, so it stays.
      const page = new Y.Map<string>();
      page.set('id', pid);
      page.set('title', title);
      array.insert(j, [page]);
    });
  }

  async function remove(id: string) {
    if (pages.length <= 1) return;
    const page = pages.find((p) => p.id === id);
    if (!(await confirm({ title: `Remove the page "${page?.title}"?`, description: 'Its text goes for everyone.', confirmLabel: 'Remove page', danger: true }))) return;
    const i = indexOf(doc, id);
    if (i < 0) return;
    doc.transact(() => {
      array.delete(i, 1);
      doc.getXmlFragment(`page:${id}`).delete(0, doc.getXmlFragment(`page:${id}`).length);
    });
    if (current === id) onSelect(read(doc)[0]?.id ?? '');
  }

  return (
    <nav aria-label="Pages" className="text-sm">
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-semibold">Pages</h2>
        {editable ? (
          <button type="button" onClick={add} className="rounded px-2 py-0.5 text-link hover:bg-brand-soft">
            + Add page
          </button>
        ) : null}
      </div>
      <ol className="space-y-1">
        {pages.map((page, i) => (
          <li key={page.id} className={`group rounded-md px-2 py-1 ${page.id === current ? 'bg-brand-soft dark:bg-indigo-950' : 'hover:bg-slate-50 dark:hover:bg-slate-800'}`}>
            {renaming === page.id ? (
              <input
                aria-label="Page title"
                defaultValue={page.title}
                autoFocus
                maxLength={100}
                className="w-full rounded border border-slate-300 bg-surface px-1 dark:border-slate-600"
                onBlur={(e) => rename(page.id, e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') rename(page.id, e.currentTarget.value);
                  if (e.key === 'Escape') setRenaming(null);
                }}
              />
            ) : (
              <button
                type="button"
                className="w-full text-left"
                aria-current={page.id === current ? 'page' : undefined}
                onClick={() => onSelect(page.id)}
                onDoubleClick={() => editable && setRenaming(page.id)}
              >
                {page.title}
                <span className="ml-1 inline-flex gap-0.5 align-middle">
                  {(here[page.id] ?? []).map((u, k) => (
                    <span key={k} title={u.name} className="inline-block h-2 w-2 rounded-full" style={{ background: u.color }} />
                  ))}
                </span>
              </button>
            )}
            {editable && renaming !== page.id ? (
              <span className="hidden gap-1 text-xs text-muted group-hover:flex group-focus-within:flex">
                <button type="button" onClick={() => setRenaming(page.id)} aria-label={`Rename ${page.title}`}>
                  rename
                </button>
                {i > 0 ? (
                  <button type="button" onClick={() => move(page.id, -1)} aria-label={`Move ${page.title} up`}>
                    up
                  </button>
                ) : null}
                {i < pages.length - 1 ? (
                  <button type="button" onClick={() => move(page.id, 1)} aria-label={`Move ${page.title} down`}>
                    down
                  </button>
                ) : null}
                {pages.length > 1 ? (
                  <button type="button" onClick={() => void remove(page.id)} aria-label={`Remove ${page.title}`}>
                    remove
                  </button>
                ) : null}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
