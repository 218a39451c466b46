import type { ReactNode } from 'react';
import { Page } from '@/components/page.tsx';
import { TabNav } from '@/components/ui/tabs.tsx';
import { workspaceRoleCan } from '@/lib/access/capabilities.ts';
import type { Actor } from '@/lib/core/caller.ts';
import type { WorkspaceDetail, WorkspaceSummary } from '@/lib/schemas/workspaces.ts';
import { workspaceTabs } from './workspace-tabs.ts';

/**
 * The frame of every workspace page: breadcrumbs, its name and the tabs the
 * person's role opens (the current one found from the address, as in the
 * space layout). `tab` and `workspaces` are kept for callers of the old frame.
 */
export function WorkspaceFrame({
  actor,
  workspace,
  children,
  title,
}: {
  actor: Actor;
  workspace: WorkspaceDetail | (WorkspaceSummary & { seats?: WorkspaceDetail['seats'] });
  workspaces?: WorkspaceSummary[];
  tab?: string;
  title?: string;
  children: ReactNode;
}) {
  const tabs = workspaceTabs
    .filter((t) => !t.need || workspaceRoleCan(workspace.role, t.need))
    .map((t) => ({ href: t.segment ? `/w/${workspace.slug}/${t.segment}` : `/w/${workspace.slug}`, label: t.label, exact: !t.segment }));
  return (
    <Page
      actor={actor}
      workspace={workspace.slug}
      crumbs={[{ label: 'Dashboard', href: '/' }, { label: workspace.name, href: `/w/${workspace.slug}` }, ...(title ? [{ label: title }] : [])]}
    >
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight">{workspace.name}</h1>
        <p className="text-sm text-muted">
          /{workspace.slug} · you are {workspace.role}
          {workspace.seats ? ` · ${workspace.seats.plan} plan, ${workspace.seats.used} of ${workspace.seats.limit ?? 'unlimited'} seats` : ''}
        </p>
      </div>
      <div className="mt-6">
        <TabNav label="Workspace" tabs={tabs} />
      </div>
      <div className="mt-6 min-w-0 space-y-6">{children}</div>
    </Page>
  );
}
