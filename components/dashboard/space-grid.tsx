import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Time } from '@/components/ui/time.tsx';
import type { SpaceCard } from '@/lib/spaces/overview.ts';

export function VisibilityBadge({ visibility, passwordProtected }: { visibility: string; passwordProtected?: boolean }) {
  const label = visibility === 'public' ? (passwordProtected ? 'Public, password' : 'Public') : 'Members only';
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${visibility === 'public' ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300' : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'}`}>
      {label}
    </span>
  );
}

/** Spaces as cards: name, workspace, visibility, latest version, when and by whom. */
export function SpaceGrid({ spaces, label = 'Spaces' }: { spaces: SpaceCard[]; label?: string }) {
  return (
    <ul aria-label={label} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {spaces.map((s) => (
        <li key={s.id} className="relative flex min-w-0 flex-col rounded-lg border border-line bg-surface p-4 hover:border-brand dark:hover:border-indigo-400">
          <div className="flex items-start justify-between gap-2">
            <h3 className="min-w-0 font-semibold">
              <a href={s.path} className="after:absolute after:inset-0 focus-visible:outline-2 focus-visible:outline-brand">
                {s.name}
              </a>
            </h3>
            <VisibilityBadge visibility={s.visibility} passwordProtected={s.passwordProtected} />
          </div>
          <p className="text-sm text-muted">{s.workspace.name}</p>
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
            {s.latest ? (
              <>
                Version {s.latest.number} · <Time ms={s.latest.at} /> by {s.latest.by ? `@${s.latest.by.handle}` : 'a deleted user'}
              </>
            ) : (
              'Nothing published yet'
            )}
          </p>
          {s.latest && s.shareUrl ? (
            <div className="relative z-10 mt-3 flex min-w-0 items-center gap-2">
              <a href={s.shareUrl} className="min-w-0 flex-1 truncate text-xs text-link underline">
                {s.shareUrl}
              </a>
              <CopyButton value={s.shareUrl} label={`Copy the address of ${s.name}`} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
