'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { currentTab } from '@/components/ui/tabs.tsx';
import { primaryNav } from './navigation.ts';

/** The top-level places; the one the address is in is marked current. */
export function PrimaryNav({ signedIn }: { signedIn: boolean }) {
  const pathname = usePathname();
  const items = signedIn ? primaryNav : primaryNav.filter((item) => item.href === '/reference');
  const current = currentTab(items, pathname);
  return (
    <nav aria-label="Main" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 text-sm">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={item.href === current ? 'page' : undefined}
              className={`block rounded-md px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-brand ${item.href === current ? 'bg-brand-soft font-medium text-link dark:bg-indigo-950' : 'text-muted hover:bg-slate-100 hover:text-slate-900 dark:hover:bg-slate-800'}`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
