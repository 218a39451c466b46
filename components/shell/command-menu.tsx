'use client';
// ⌘K / Ctrl+K: find anything by typing part of its name. Pages, settings and
// actions are known here and matched at once; workspaces, spaces, rooms, live
// spaces, apps and files come from GET /v1/search, one request per pause in
// typing, which finds only what the caller may see.
import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog.tsx';
import { control } from '@/components/ui/field.tsx';
import { workspaceTabs } from '@/components/workspaces/workspace-tabs.ts';
import { workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { searchApi, type SearchResult } from '@/lib/schemas/search.ts';
import type { WorkspaceSummary } from '@/lib/schemas/workspaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { primaryNav, settingsNav } from './navigation.ts';

type Entry = { label: string; hint: string; href: string };
type Workspace = Pick<WorkspaceSummary, 'slug' | 'name' | 'role'>;

// Long enough that a typist's keystrokes make one request, short enough to feel immediate.
const PAUSE_MS = 150;
const LOCAL_LIMIT = 8;

const KIND: Record<SearchResult['kind'], string> = { workspace: 'Workspace', space: 'Space', room: 'Room', 'live-space': 'Live space', app: 'App', file: 'File' };

/** What the menu knows without asking: actions, then pages, settings and each workspace's pages the person's role opens. */
function localEntries(workspaces: Workspace[]): Entry[] {
  return [
    ...workspaces.flatMap((w) => [
      ...(workspaceRoleCan(w.role, 'push') ? [{ label: `Create a space in ${w.name}`, hint: 'Action', href: `/w/${w.slug}/spaces#new-space` }] : []),
      ...(workspaceRoleCan(w.role, 'admin') ? [{ label: `Invite someone to ${w.name}`, hint: 'Action', href: `/w/${w.slug}#invite` }] : []),
    ]),
    { label: 'New API token', hint: 'Action', href: '/settings/tokens#new-token' },
    { label: 'New workspace', hint: 'Action', href: '/w/new' },
    ...primaryNav.map((n) => ({ label: n.label, hint: 'Page', href: n.href })),
    { label: 'Rooms', hint: 'Page', href: '/rooms' },
    { label: 'Live spaces', hint: 'Page', href: '/live-spaces' },
    { label: 'Notifications', hint: 'Page', href: '/notifications' },
    ...settingsNav.map((n) => ({ label: n.label, hint: 'Settings', href: n.href })),
    ...workspaces.flatMap((w) =>
      workspaceTabs.filter((t) => !t.need || workspaceRoleCan(w.role, t.need)).map((t) => ({ label: t.label, hint: `Page of ${w.name}`, href: `/w/${w.slug}${t.segment ? `/${t.segment}` : ''}` })),
    ),
  ];
}

const matches = (words: string[]) => (e: Entry) => words.every((w) => `${e.label} ${e.hint}`.toLowerCase().includes(w));

export function CommandMenu({ workspaces }: { workspaces: Workspace[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<{ q: string; entries: Entry[]; error?: string } | null>(null);
  const listId = useId();
  const statusId = useId();
  const input = useRef<HTMLInputElement>(null);
  const q = query.trim();

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

  // One request once typing pauses; a newer query cancels the one in flight.
  useEffect(() => {
    if (!open || !q) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      web
        .call(searchApi.search, { query: { q }, signal: controller.signal })
        .then(({ results }) => setFound({ q, entries: results.map((r) => ({ label: r.name, hint: `${KIND[r.kind]} · ${r.context}`, href: r.path })) }))
        .catch((error: Error) => {
          if (!controller.signal.aborted) setFound({ q, entries: [], error: error.message });
        });
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, q]);

  const local = useMemo(() => localEntries(workspaces), [workspaces]);
  const entries = useMemo(() => {
    if (!q) return [...local.filter((e) => e.hint === 'Action' || e.hint === 'Page'), ...workspaces.map((w) => ({ label: w.name, hint: `Workspace /${w.slug}`, href: `/w/${w.slug}` }))];
    const words = q.toLowerCase().split(/\s+/);
    // The last answer stays while the next is awaited, narrowed to the words typed since, so the list does not flicker.
    return [...local.filter(matches(words)).slice(0, LOCAL_LIMIT), ...(found?.entries.filter(matches(words)) ?? [])];
  }, [q, local, found, workspaces]);
  const searching = q !== '' && found?.q !== q;

  useEffect(() => setActive(0), [q]);
  const current = Math.min(active, entries.length - 1);

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
        className="hidden items-center gap-2 rounded-md border border-slate-300 px-2.5 py-1 text-sm text-muted hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand sm:inline-flex dark:border-slate-600 dark:hover:bg-slate-800"
        aria-keyshortcuts="Control+K Meta+K"
      >
        Jump to…
        <kbd className="rounded bg-slate-100 px-1 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">⌘K</kbd>
      </button>
      <button type="button" onClick={() => setOpen(true)} aria-label="Jump to" className="rounded-md p-1.5 text-muted hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand sm:hidden dark:hover:bg-slate-800">
        {/* Drawn like the bell beside it: the "⌕" glyph is tiny or missing in many fonts. */}
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-4-4" />
        </svg>
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Jump to" className="max-w-lg">
        <input
          ref={input}
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-describedby={statusId}
          aria-activedescendant={entries[current] ? `${listId}-${current}` : undefined}
          aria-label="Find a space, file, room, app, page or action"
          placeholder="Find a space, file, room, app, page or action…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setActive(Math.min(current + 1, entries.length - 1));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setActive(Math.max(current - 1, 0));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              go(entries[current]);
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
              aria-selected={i === current}
              onMouseEnter={() => setActive(i)}
              onClick={() => go(entry)}
              className={`flex cursor-pointer flex-col gap-x-3 rounded-md sm:flex-row sm:items-baseline sm:justify-between px-3 py-2 text-sm ${i === current ? 'bg-brand-soft text-link dark:bg-indigo-950' : ''}`}
            >
              <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{entry.label}</span>
              <span className={`text-xs [overflow-wrap:anywhere] sm:max-w-[45%] sm:text-right ${i === current ? '' : 'text-muted'}`}>{entry.hint}</span>
            </li>
          ))}
        </ul>
        <p id={statusId} role="status" className="px-3 pt-2 text-xs text-muted">
          {found?.q === q && found.error ? `Search failed: ${found.error}` : searching ? 'Searching…' : entries.length === 0 ? 'Nothing matches.' : `${entries.length} ${entries.length === 1 ? 'result' : 'results'}`}
        </p>
      </Dialog>
    </>
  );
}
