// What a deploy changed against the one before: counts at a glance, the files
// (pages, styles, data) on demand.
import type { AppDeploy } from '@/lib/schemas/apps.ts';

const GROUPS = [
  ['added', 'Added', 'text-emerald-700 dark:text-emerald-400'],
  ['changed', 'Changed', 'text-amber-700 dark:text-amber-400'],
  ['removed', 'Removed', 'text-danger'],
] as const;

export function DeployChanges({ changes }: { changes: AppDeploy['changes'] }) {
  const groups = GROUPS.filter(([key]) => changes[key].length > 0);
  if (!groups.length) return <span className="text-muted">No file changed</span>;
  return (
    <details>
      <summary className="cursor-pointer">{groups.map(([key, label]) => `${changes[key].length} ${label.toLowerCase()}`).join(', ')}</summary>
      <dl className="mt-1 space-y-2 text-xs">
        {groups.map(([key, label, tone]) => (
          <div key={key}>
            <dt className={`font-medium ${tone}`}>{label}</dt>
            {changes[key].map((path) => (
              <dd key={path} className="font-mono [overflow-wrap:anywhere]">
                {path}
              </dd>
            ))}
          </div>
        ))}
      </dl>
    </details>
  );
}
