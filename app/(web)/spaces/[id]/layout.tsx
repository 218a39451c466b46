import type { ReactNode } from 'react';
import { Page } from '@/components/page.tsx';
import { VisibilityBadge } from '@/components/dashboard/space-grid.tsx';
import { tabsFor } from '@/components/spaces/space-tabs.ts';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { TabNav } from '@/components/ui/tabs.tsx';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

// Every page of a space: loads it once, draws its header and tabs; the tab
// pages are the folders beside this file.
export default async function SpaceLayout({ params, children }: { params: Promise<{ id: string }>; children: ReactNode }) {
  const { id } = await params;
  const { caller, space } = await spacePage(id);
  const member = caller.actor !== null;
  return (
    <Page
      actor={caller.actor}
      workspace={space.workspace.slug}
      crumbs={[
        ...(member ? [{ label: 'Dashboard', href: '/' }, { label: space.workspace.name, href: `/w/${space.workspace.slug}/spaces` }] : []),
        { label: space.name },
      ]}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">{space.name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
            <VisibilityBadge visibility={space.visibility} passwordProtected={space.passwordProtected} />
            <span>{space.latestVersion ? `version ${space.latestVersion}` : 'nothing published yet'}</span>
          </p>
        </div>
        {space.latestVersion ? (
          <div className="flex min-w-0 max-w-full flex-wrap items-center gap-2">
            <a href={space.url} className="text-sm font-medium text-link underline">
              Open the published site
            </a>
            <CopyButton value={space.url} label="Copy the site's address" />
          </div>
        ) : null}
      </div>
      <div className="mt-6">
        <TabNav label="Space" tabs={tabsFor(space)} />
      </div>
      <div className="mt-6 min-w-0 space-y-6">{children}</div>
    </Page>
  );
}
