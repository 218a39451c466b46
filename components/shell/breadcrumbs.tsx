import type { Crumb } from './navigation.ts';

/** Where this page sits: each step a link but the last (the page itself). */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (!crumbs.length) return null;
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-muted">
      <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={i} className="flex min-w-0 items-center gap-1.5">
              {crumb.href && !last ? (
                <a href={crumb.href} className="[overflow-wrap:anywhere] hover:text-slate-900 hover:underline dark:hover:text-slate-100">
                  {crumb.label}
                </a>
              ) : (
                <span aria-current={last ? 'page' : undefined} className="[overflow-wrap:anywhere] text-slate-700 dark:text-slate-200">
                  {crumb.label}
                </span>
              )}
              {last ? null : <span aria-hidden="true">/</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
