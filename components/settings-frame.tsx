import type { ReactNode } from 'react';
import type { Actor } from '@/lib/core/caller.ts';
import { Page } from './page.tsx';
import { settingsNav } from './shell/navigation.ts';

/** The settings pages: a section menu beside (on phones, above) the section. */
export function SettingsFrame({ actor, current, children }: { actor: Actor; current: (typeof settingsNav)[number]['href']; children: ReactNode }) {
  return (
    <Page actor={actor} title="Settings" crumbs={[{ label: 'Dashboard', href: '/' }, { label: 'Settings', href: '/settings' }, ...(current === '/settings' ? [] : [{ label: settingsNav.find((s) => s.href === current)!.label }])]}>
      <div className="flex flex-col gap-8 md:flex-row">
        <nav aria-label="Settings" className="md:w-48 md:shrink-0">
          <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
            {settingsNav.map(({ href, label }) => (
              <li key={href}>
                <a
                  href={href}
                  aria-current={href === current ? 'page' : undefined}
                  className={`block rounded-md px-3 py-1.5 text-sm ${href === current ? 'bg-brand-soft font-medium text-link' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1 space-y-6">{children}</div>
      </div>
    </Page>
  );
}
