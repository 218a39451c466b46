import { DiffLines } from '@/components/spaces/diff-lines.tsx';
import { hunks, lineDiff } from '@/lib/web/line-diff.ts';

/** A line diff of one text file, with line numbers: removed lines red, added lines green, unified or split as the person chose (DiffLayoutToggle). */
export function DiffView({ path, before, after }: { path: string; before: string; after: string }) {
  const lines = lineDiff(before, after);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <figure aria-label={`Diff of ${path}`} className="min-w-0 overflow-hidden rounded-md border border-line">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-line bg-slate-50 px-3 py-1.5 text-xs dark:bg-slate-800">
        <span className="font-mono [overflow-wrap:anywhere]">{path}</span>
        <span>
          <span className="text-emerald-700 dark:text-emerald-400">+{added}</span> <span className="text-danger">−{removed}</span>
        </span>
      </figcaption>
      <DiffLines path={path} hunks={hunks(lines)} />
    </figure>
  );
}
