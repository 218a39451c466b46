'use client';
// The lines of a diff, unified or side by side. The layout is a choice each
// person makes once (kept in this browser's localStorage) and every diff on
// the page follows it; on a narrow screen side by side would leave each half
// a few characters wide, so it is shown unified there, and the toggle says so.
import { useSyncExternalStore } from 'react';
import { focusRing } from '@/components/ui/button.tsx';
import { splitRows, type DiffLine, type Hunk } from '@/lib/web/line-diff.ts';

type Layout = 'unified' | 'split';

const KEY = 'atrium.diff-layout';
const NARROW = '(max-width: 767px)';
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = window.matchMedia(NARROW);
  media.addEventListener('change', listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    media.removeEventListener('change', listener);
    window.removeEventListener('storage', listener);
  };
}

function chosenLayout(): Layout {
  try {
    return window.localStorage.getItem(KEY) === 'split' ? 'split' : 'unified';
  } catch {
    // Storage refused (a privacy setting): the default, unified.
    return 'unified';
  }
}

function chooseLayout(layout: Layout) {
  try {
    window.localStorage.setItem(KEY, layout);
  } catch {
    // Not kept, but still shown on this page.
  }
  for (const listener of listeners) listener();
}

function useDiffLayout() {
  const chosen = useSyncExternalStore<Layout>(subscribe, chosenLayout, () => 'unified');
  const narrow = useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches, () => false);
  return { chosen, narrow, shown: narrow ? 'unified' : chosen };
}

export function DiffLayoutToggle() {
  const { chosen, narrow } = useDiffLayout();
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <div role="group" aria-label="Diff layout" className="inline-flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-600">
        {(['unified', 'split'] as const).map((layout) => (
          <button
            key={layout}
            type="button"
            aria-pressed={chosen === layout}
            onClick={() => chooseLayout(layout)}
            className={`px-2.5 py-1 font-medium ${focusRing} ${chosen === layout ? 'bg-slate-800 text-white dark:bg-slate-200 dark:text-slate-900' : 'bg-surface text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`}
          >
            {layout === 'unified' ? 'Unified' : 'Split'}
          </button>
        ))}
      </div>
      {narrow && chosen === 'split' ? <span className="text-muted">Split needs a wider screen: shown unified here.</span> : null}
    </div>
  );
}

const tint = (line: DiffLine | null) =>
  line?.kind === 'added' ? 'bg-emerald-50 dark:bg-emerald-950/50' : line?.kind === 'removed' ? 'bg-red-50 dark:bg-red-950/50' : '';
const number = 'w-px select-none whitespace-nowrap px-2 text-right align-top text-muted tabular-nums';

/** The line's text, marked for eyes (+/−) and for screen readers ("added: "). */
function Text({ line }: { line: DiffLine }) {
  return (
    <>
      <span aria-hidden="true">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}</span>
      <span className="sr-only">{line.kind === 'added' ? 'added: ' : line.kind === 'removed' ? 'removed: ' : ''}</span>
      {line.text}
    </>
  );
}

export function DiffLines({ path, hunks }: { path: string; hunks: Hunk[] }) {
  const { shown } = useDiffLayout();
  const split = shown === 'split';
  return (
    <div className="overflow-x-auto" tabIndex={0} role="group" aria-label={`Lines of ${path}`} data-layout={shown}>
      <table className={`w-full border-collapse font-mono text-xs ${split ? 'table-fixed' : ''}`}>
        {split ? (
          <colgroup>
            <col className="w-12" />
            <col />
            <col className="w-12" />
            <col />
          </colgroup>
        ) : null}
        <tbody>
          {hunks.map((hunk, h) => [
            h > 0 ? (
              <tr key={`gap-${h}`}>
                <td colSpan={split ? 4 : 3} className="bg-slate-50 px-2 text-muted dark:bg-slate-800">
                  ⋯
                </td>
              </tr>
            ) : null,
            ...(split
              ? splitRows(hunk.lines).map(({ left, right }, i) => (
                  <tr key={`${h}-${i}`}>
                    <td className={`${number} ${tint(left)}`}>{left?.old ?? ''}</td>
                    <td className={`whitespace-pre-wrap px-2 [overflow-wrap:anywhere] ${tint(left)}`}>{left ? <Text line={left} /> : null}</td>
                    <td className={`${number} border-l border-line ${tint(right)}`}>{right?.new ?? ''}</td>
                    <td className={`whitespace-pre-wrap px-2 [overflow-wrap:anywhere] ${tint(right)}`}>{right ? <Text line={right} /> : null}</td>
                  </tr>
                ))
              : hunk.lines.map((line, i) => (
                  <tr key={`${h}-${i}`} className={tint(line)}>
                    <td className={number}>{line.old ?? ''}</td>
                    <td className={number}>{line.new ?? ''}</td>
                    <td className="whitespace-pre px-2">
                      <Text line={line} />
                    </td>
                  </tr>
                ))),
          ])}
        </tbody>
      </table>
    </div>
  );
}
