'use client';
// A dropdown menu (menu button pattern): Enter, Space or ArrowDown opens it,
// arrows move between items, Escape closes it and returns focus, a click
// outside closes it. An item is a link, or an action (`run`) such as one that
// opens a confirm dialog.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export type MenuItem = { label: string; href: string; current?: boolean; hint?: string } | { label: string; run: () => void; danger?: boolean } | { separator: true };

const itemClass = 'block w-full px-3 py-2 text-left [overflow-wrap:anywhere] hover:bg-slate-100 focus:bg-slate-100 focus:outline-none dark:hover:bg-slate-800 dark:focus:bg-slate-800';

export function DropdownMenu({ label, button, items, align = 'left' }: { label: string; button: ReactNode; items: MenuItem[]; align?: 'left' | 'right' }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const links = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    links()[0]?.focus();
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  function onKey(event: React.KeyboardEvent) {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      setOpen(false);
      trigger.current?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      all[(at + 1) % all.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      all[(at - 1 + all.length) % all.length]?.focus();
    } else if (event.key === 'Home') all[0]?.focus();
    else if (event.key === 'End') all[all.length - 1]?.focus();
    else if (event.key === 'Tab') setOpen(false);
  }

  return (
    <div ref={root} className="relative" onKeyDown={onKey}>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex max-w-[9rem] items-center sm:max-w-[14rem] gap-1 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand dark:hover:bg-slate-800"
      >
        {/* The name is "label: visible text", so what is seen is part of what is announced (WCAG 2.5.3). */}
        <span className="sr-only">{label}: </span>
        {button}
        <span aria-hidden="true" className="text-muted">▾</span>
      </button>
      {open ? (
        <ul
          id={id}
          role="menu"
          aria-label={label}
          className={`absolute z-40 mt-1 max-h-[70vh] w-64 max-w-[calc(100vw-2rem)] overflow-y-auto rounded-lg border border-line bg-surface py-1 text-sm shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
        >
          {items.map((item, i) =>
            'separator' in item ? (
              <li key={i} role="separator" className="my-1 border-t border-slate-200 dark:border-slate-700" />
            ) : 'run' in item ? (
              <li key={i} role="none">
                <button
                  type="button"
                  role="menuitem"
                  className={`${itemClass} ${item.danger ? 'text-red-700 dark:text-red-400' : ''}`}
                  onClick={() => {
                    setOpen(false);
                    trigger.current?.focus();
                    item.run();
                  }}
                >
                  {item.label}
                </button>
              </li>
            ) : (
              <li key={i} role="none">
                <a
                  role="menuitem"
                  href={item.href}
                  aria-current={item.current ? 'page' : undefined}
                  className={`${itemClass} ${item.current ? 'font-semibold text-link' : ''}`}
                >
                  {item.label}
                  {item.hint ? <span className="block text-xs text-muted">{item.hint}</span> : null}
                </a>
              </li>
            ),
          )}
        </ul>
      ) : null}
    </div>
  );
}
