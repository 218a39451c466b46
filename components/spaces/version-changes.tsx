import { DiffLayoutToggle } from '@/components/spaces/diff-lines.tsx';
import { DiffView } from '@/components/spaces/diff-view.tsx';
import type { Caller } from '@/lib/core/caller.ts';
import { ApiError } from '@/lib/core/errors.ts';
import type { Diff, Space } from '@/lib/schemas/spaces.ts';
import { readFile } from '@/lib/spaces/publishing.ts';
import { spaceHref } from '@/lib/web/space-page.ts';

/** Changed text files shown as line diffs on one page; the rest are listed. */
const DIFFED_FILES = 10;
/** Paths listed per kind of change. */
const LISTED = 200;

/**
 * What changed from version `base` to version `head` (the version before, on
 * the history page; any two, on the compare page): the paths added, changed
 * and removed, and line diffs of the first changed text files.
 */
export async function VersionChanges({ space, caller, base, head, diff }: { space: Space; caller: Caller; base: number; head: number; diff: Diff }) {
  const text = async (path: string, n: number) => {
    const read = await readFile(caller, space.id, path.split('/'), n).catch((e) => (e instanceof ApiError ? null : Promise.reject(e)));
    return read && read.file.text && !read.file.truncated ? read.content : null;
  };
  const diffs = await Promise.all(diff.changed.slice(0, DIFFED_FILES).map(async (path) => ({ path, before: await text(path, base), after: await text(path, head) })));
  const groups: [string, string[], string, number][] = [
    ['Added', diff.added, 'text-emerald-700 dark:text-emerald-400', head],
    ['Changed', diff.changed, 'text-amber-700 dark:text-amber-400', head],
    // A removed file is still there in the base version.
    ['Removed', diff.removed, 'text-danger', base],
  ];
  return (
    <>
      <div className="mt-4 space-y-3">
        {groups.map(([label, paths, color, v]) =>
          paths.length ? (
            <div key={label}>
              <h3 className={`text-sm font-semibold ${color}`}>
                {label} ({paths.length})
              </h3>
              <ul className="mt-1 space-y-0.5 font-mono text-sm [overflow-wrap:anywhere]">
                {paths.slice(0, LISTED).map((p) => (
                  <li key={p}>
                    <a href={spaceHref(space.id, '', { v, path: p })} className="text-link">
                      {p}
                    </a>{' '}
                    <a href={spaceHref(space.id, 'history', { file: p })} className="font-sans text-xs text-muted underline">
                      history
                    </a>
                  </li>
                ))}
                {paths.length > LISTED ? <li className="text-muted">and {paths.length - LISTED} more</li> : null}
              </ul>
            </div>
          ) : null,
        )}
      </div>
      {diffs.length ? (
        <div className="mt-6 space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-semibold">Line changes</h3>
            <DiffLayoutToggle />
          </div>
          {diffs.map((d) =>
            d.before !== null && d.after !== null ? (
              <DiffView key={d.path} path={d.path} before={d.before} after={d.after} />
            ) : (
              <p key={d.path} className="text-sm text-muted">
                {d.path} is not text (or is over 1 MiB): no line diff.
              </p>
            ),
          )}
          {diff.changed.length > DIFFED_FILES ? <p className="text-sm text-muted">Line diffs of the first {DIFFED_FILES} changed files are shown.</p> : null}
        </div>
      ) : null}
    </>
  );
}
