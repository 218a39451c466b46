'use client';
// ⌘K / Ctrl+K: jump to any workspace or space (or a top-level place) by
// typing part of its name. Spaces are fetched through the typed client when
// the menu first opens, so pages do not pay for it.
import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog.tsx';
import { control } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { primaryNav } from './navigation.ts';

type Entry = { label: string; hint: string; href: string };

export function CommandMenu({ workspaces }: { workspaces: { slug: string; name: string }[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [spaces, setSpaces] = useState<Entry[] | null>(null);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((was) => !was);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (!open || spaces) return;
    Promise.all(workspaces.map((w) => web.call(spacesApi.list, { query: { workspace: w.slug } }).catch(() => ({ spaces: [] }))))
      .then((lists) => setSpaces(lists.flatMap((l) => l.spaces).map((s) => ({ label: s.name, hint: `Space in ${s.workspace.name}`, href: s.path }))))
      .catch(() => setSpaces([]));
  }, [open, spaces, workspaces]);

  const entries = useMemo(() => {
    const all: Entry[] = [
      ...primaryNav.map((n) => ({ label: n.label, hint: 'Page', href: n.href })),
      ...workspaces.map((w) => ({ label: w.name, hint: `Workspace /${w.slug}`, href: `/w/${w.slug}` })),
      ...(spaces ?? []),
    ];
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return all.filter((e) => words.every((w) => `${e.label} ${e.hint}`.toLowerCase().includes(w))).slice(0, 30);
  }, [query, spaces, workspaces]);

  useEffect(() => setActive(0), [query]);

  function go(entry: Entry | undefined) {
    if (!entry) return;
    setOpen(false);
    setQuery('');
    router.push(entry.href);
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="hidden items-center gap-2 rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-600 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand sm:inline-flex dark:border-slate-600 dark:text-slate-400 dark:hover:bg-slate-800"
        aria-keyshortcuts="Control+K Meta+K"
      >
        Jump to…
        <kbd className="rounded bg-slate-100 px-1 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">⌘K</kbd>
      </button>
      <button type="button" onClick={() => setOpen(true)} aria-label="Jump to" className="rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand sm:hidden dark:text-slate-300">
        ⌕
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Jump to" className="max-w-lg">
        <input
          ref={input}
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={entries[active] ? `${listId}-${active}` : undefined}
          aria-label="Workspace, space or page"
          placeholder="Type a workspace, space or page…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setActive((a) => Math.min(a + 1, entries.length - 1));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              go(entries[active]);
            }
          }}
          className={control}
        />
        <ul id={listId} role="listbox" aria-label="Results" className="mt-2 max-h-80 overflow-y-auto">
          {entries.map((entry, i) => (
            <li
              key={`${entry.href}-${i}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseEnter={() => setActive(i)}
              onClick={() => go(entry)}
              className={`cursor-pointer rounded-md px-3 py-2 text-sm ${i === active ? 'bg-brand-soft text-brand dark:bg-indigo-950 dark:text-indigo-300' : ''}`}
            >
              <span className="font-medium [overflow-wrap:anywhere]">{entry.label}</span>
              <span className="ml-2 text-xs text-slate-500">{entry.hint}</span>
            </li>
          ))}
          {entries.length === 0 ? <li className="px-3 py-2 text-sm text-slate-500">{spaces ? 'Nothing matches.' : 'Loading…'}</li> : null}
        </ul>
      </Dialog>
    </>
  );
}
