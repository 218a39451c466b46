import { hunks, lineDiff } from '@/lib/web/line-diff.ts';

/** A unified line diff of one text file: removed lines red, added lines green, with line numbers. */
export function DiffView({ path, before, after }: { path: string; before: string; after: string }) {
  const lines = lineDiff(before, after);
  if (!lines) return <p className="text-sm text-slate-500">{path} changed too much to compare line by line.</p>;
  const cut = hunks(lines);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <figure aria-label={`Diff of ${path}`} className="min-w-0 overflow-hidden rounded-md border border-slate-200 dark:border-slate-700">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-1.5 text-xs dark:border-slate-700 dark:bg-slate-800">
        <span className="font-mono [overflow-wrap:anywhere]">{path}</span>
        <span>
          <span className="text-emerald-700 dark:text-emerald-400">+{added}</span> <span className="text-red-700 dark:text-red-400">−{removed}</span>
        </span>
      </figcaption>
      <div className="overflow-x-auto" tabIndex={0} role="group" aria-label={`Lines of ${path}`}>
        <table className="w-full border-collapse font-mono text-xs">
          <tbody>
            {cut.map((hunk, h) => [
              h > 0 ? (
                <tr key={`gap-${h}`}>
                  <td colSpan={3} className="bg-slate-50 px-2 text-slate-400 dark:bg-slate-800">⋯</td>
                </tr>
              ) : null,
              ...hunk.lines.map((line, i) => (
                <tr
                  key={`${h}-${i}`}
                  className={line.kind === 'added' ? 'bg-emerald-50 dark:bg-emerald-950/50' : line.kind === 'removed' ? 'bg-red-50 dark:bg-red-950/50' : ''}
                >
                  <td className="w-px select-none whitespace-nowrap px-2 text-right text-slate-500 tabular-nums">{line.old ?? ''}</td>
                  <td className="w-px select-none whitespace-nowrap px-2 text-right text-slate-500 tabular-nums">{line.new ?? ''}</td>
                  <td className="whitespace-pre px-2">
                    <span aria-hidden="true">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}</span>
                    <span className="sr-only">{line.kind === 'added' ? 'added: ' : line.kind === 'removed' ? 'removed: ' : ''}</span>
                    {line.text}
                  </td>
                </tr>
              )),
            ])}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
