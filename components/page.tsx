import type { ReactNode } from 'react';
import type { Actor } from '@/lib/core/caller.ts';
import { AppShell } from './shell/app-shell.tsx';
import type { Crumb } from './shell/navigation.ts';

/** The frame of every web page: the app shell (header, navigation, breadcrumbs) and the main column. */
export function Page({
  actor,
  title,
  children,
  width = 'max-w-6xl',
  crumbs,
  workspace,
}: {
  actor: Actor | null;
  title?: string;
  children: ReactNode;
  width?: string;
  crumbs?: Crumb[];
  /** The slug of the workspace this page belongs to (the switcher shows it). */
  workspace?: string;
}) {
  return (
    <AppShell actor={actor} crumbs={crumbs} workspace={workspace} width={width}>
      {title ? <h1 className="mb-6 text-2xl font-bold tracking-tight">{title}</h1> : null}
      {children}
    </AppShell>
  );
}
