import type { ReactNode } from 'react';

/** `id` makes the card an address (`#new-space`) that ⌘K's actions lead to. */
export function Card({ title, actions, children, label, id }: { title?: string; actions?: ReactNode; children: ReactNode; label?: string; id?: string }) {
  return (
    <section id={id} className="min-w-0 rounded-lg border border-line bg-surface p-4 sm:p-5" aria-label={label ?? title}>
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="font-semibold">{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** Nothing here yet: what that means, and (with `action`) what to do about it. */
export function EmptyState({ children, title, action }: { children: ReactNode; title?: string; action?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-muted dark:border-slate-600">
      {title ? <p className="mb-1 font-medium text-slate-800 dark:text-slate-200">{title}</p> : null}
      <div>{children}</div>
      {action ? <div className="mt-4 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="text-sm text-danger">
      {children}
    </p>
  );
}
