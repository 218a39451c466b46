import type { ReactNode } from 'react';
import { callerAs } from '@/lib/core/caller.ts';
import type { Actor } from '@/lib/core/caller.ts';
import { unreadCount } from '@/lib/notifications/notifications.ts';
import { listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { DropdownMenu } from '@/components/ui/menu.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { CommandMenu } from './command-menu.tsx';
import type { Crumb } from './navigation.ts';
import { PrimaryNav } from './primary-nav.tsx';

function Logo() {
  return (
    <a href="/" className="flex shrink-0 items-center gap-2 rounded text-lg font-semibold text-link focus-visible:outline-2 focus-visible:outline-brand">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-6">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M9 23 16 8l7 15M12 17h8" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Atrium
    </a>
  );
}

/** The inbox's bell, with the number of unread notifications. */
function Bell({ unread }: { unread: number }) {
  return (
    <a
      href="/notifications"
      aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      className="relative flex size-9 shrink-0 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:outline-indigo-300"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread ? (
        <span aria-hidden="true" className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold leading-5 text-white">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </a>
  );
}

/**
 * The frame of every page: logo, workspace switcher, jump-to (⌘K), the inbox's
 * bell, the person's menu, the main navigation, breadcrumbs and the page's column.
 */
export async function AppShell({ actor, workspace, crumbs = [], children, width = 'max-w-6xl' }: { actor: Actor | null; workspace?: string; crumbs?: Crumb[]; children: ReactNode; width?: string }) {
  const [workspaces, unread] = actor ? await Promise.all([listWorkspaces(callerAs(actor)), unreadCount(actor.user.id)]) : [[], 0];
  const current = workspaces.find((w) => w.slug === workspace);
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-line bg-surface dark:border-slate-800 dark:bg-slate-950">
        {/* The header keeps one width on every page; only the page's column narrows (sign-in, forms). */}
        <div className="mx-auto flex min-w-0 max-w-6xl flex-wrap items-center gap-2 px-4 pt-3">
          <Logo />
          {actor ? (
            <>
              <span aria-hidden="true" className="text-slate-300 dark:text-slate-600">/</span>
              <DropdownMenu
                label="Switch workspace"
                button={<span className="min-w-0 truncate">{current ? current.name : 'Workspaces'}</span>}
                items={[
                  ...workspaces.map((w) => ({ label: w.name, hint: `/${w.slug} · ${w.role}`, href: `/w/${w.slug}`, current: w.slug === workspace })),
                  { separator: true as const },
                  { label: 'New workspace…', href: '/w/new' },
                ]}
              />
            </>
          ) : null}
          <div className="ml-auto flex items-center gap-2">
            {actor ? <CommandMenu workspaces={workspaces.map((w) => ({ slug: w.slug, name: w.name, role: w.role }))} /> : null}
            {actor ? <Bell unread={unread} /> : null}
            {actor ? (
              <DropdownMenu
                label="Your account"
                align="right"
                button={<span className="min-w-0 truncate">{actor.user.name ? `${actor.user.name} (@${actor.user.handle})` : `@${actor.user.handle}`}</span>}
                items={[
                  { label: 'Profile and settings', href: '/settings' },
                  { label: 'API tokens', href: '/settings/tokens' },
                  { separator: true },
                  { label: 'Sign out', href: '/signout' },
                ]}
              />
            ) : (
              <a href="/signin" className="rounded-md px-3 py-1.5 text-sm font-medium text-link hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-brand">
                Sign in
              </a>
            )}
          </div>
        </div>
        <div className="mx-auto max-w-6xl px-4 py-2">
          <PrimaryNav signedIn={actor !== null} />
        </div>
      </header>
      <main id="main" className={`mx-auto ${width} min-w-0 px-4 py-6 sm:py-8`}>
        <Breadcrumbs crumbs={crumbs} />
        {children}
      </main>
    </>
  );
}
