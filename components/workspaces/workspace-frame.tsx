import type { ReactNode } from 'react';
import { Page } from '@/components/page.tsx';
import { workspaceRoleCan } from '@/lib/access/capabilities.ts';
import type { Actor } from '@/lib/auth/tokens.ts';
import type { WorkspaceDetail, WorkspaceSummary } from '@/lib/schemas/workspaces.ts';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

type Tab = 'members' | 'spaces' | 'apps' | 'invites' | 'audit' | 'billing';

/** The frame of every workspace page: its name, the switcher and the tabs the person's role opens. */
export function WorkspaceFrame({
  actor,
  workspace,
  workspaces,
  tab,
  children,
}: {
  actor: Actor;
  workspace: WorkspaceDetail;
  workspaces: WorkspaceSummary[];
  tab: Tab;
  children: ReactNode;
}) {
  const admin = workspaceRoleCan(workspace.role, 'admin');
  const tabs: [Tab, string, string][] = [
    ['members', 'Members', `/w/${workspace.slug}`],
    ['spaces', 'Spaces', `/w/${workspace.slug}/spaces`],
    ['apps', 'Apps', `/w/${workspace.slug}/apps`],
    ['billing', 'Billing', `/w/${workspace.slug}/billing`],
    ...(admin
      ? ([
          ['invites', 'Invite links', `/w/${workspace.slug}/invites`],
          ['audit', 'Audit log', `/w/${workspace.slug}/audit`],
        ] as [Tab, string, string][])
      : []),
  ];
  return (
    <Page actor={actor}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{workspace.name}</h1>
          <p className="text-sm text-slate-500">
            /{workspace.slug} · you are {workspace.role}
            {workspace.seats ? ` · ${workspace.seats.plan} plan, ${workspace.seats.used} of ${workspace.seats.limit ?? 'unlimited'} seats` : ''}
          </p>
        </div>
        <WorkspaceSwitcher workspaces={workspaces} current={workspace.slug} />
      </div>
      <nav aria-label="Workspace" className="mt-6 flex gap-1 overflow-x-auto border-b border-slate-200 text-sm">
        {tabs.map(([key, label, href]) => (
          <a
            key={key}
            href={href}
            aria-current={key === tab ? 'page' : undefined}
            className={`whitespace-nowrap border-b-2 px-3 py-2 ${key === tab ? 'border-brand font-medium text-brand' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {label}
          </a>
        ))}
      </nav>
      <div className="mt-6 space-y-6">{children}</div>
    </Page>
  );
}
