'use client';
// Tabs that are links to nested routes: the current one is found from the
// address, so a layout can draw them once for all its pages. While the next
// tab loads, the clicked one shows as pending.
import { usePathname } from 'next/navigation';
import Link from 'next/link';
import { useState, useEffect } from 'react';

export type TabLink = { href: string; label: string; exact?: boolean };

export function currentTab(tabs: TabLink[], pathname: string): string | undefined {
  // The longest matching href wins, so /spaces/x/history beats /spaces/x.
  const matches = tabs.filter((t) => pathname === t.href || (!t.exact && pathname.startsWith(`${t.href}/`)));
  return matches.sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

export function TabNav({ tabs, label }: { tabs: TabLink[]; label: string }) {
  const pathname = usePathname();
  const current = currentTab(tabs, pathname);
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => setPending(null), [pathname]);
  return (
    <nav aria-label={label} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 border-b border-line text-sm">
        {tabs.map((tab) => {
          const active = tab.href === current;
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                onClick={() => !active && setPending(tab.href)}
                aria-current={active ? 'page' : undefined}
                aria-busy={pending === tab.href ? true : undefined}
                className={`-mb-px block whitespace-nowrap border-b-2 px-3 py-2 focus-visible:outline-2 focus-visible:outline-brand ${active ? 'border-brand font-medium text-link dark:border-indigo-300' : 'border-transparent text-muted hover:text-slate-900 dark:hover:text-slate-100'} ${pending === tab.href ? 'animate-pulse' : ''}`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
