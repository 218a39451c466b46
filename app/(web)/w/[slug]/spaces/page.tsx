import type { Metadata } from 'next';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { listSpaces } from '@/lib/spaces/spaces.ts';
import { formatDate } from '@/lib/web/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { CreateSpaceForm } from './create-space-form.tsx';

export const metadata: Metadata = { title: 'Spaces' };
export const dynamic = 'force-dynamic';

export default async function SpacesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/spaces`);
  const { actor } = caller;
  const [workspace, workspaces, spaces] = await Promise.all([
    orNotFound(getWorkspace(caller, slug)),
    listWorkspaces(caller),
    // An app's own spaces (its preview, its live data) show on the app's page.
    listSpaces(caller, slug).then((all) => all.filter((space) => space.kind === 'repo')),
  ]);
  return (
    <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="spaces">
      <Card title={`Spaces (${spaces.length})`}>
        {spaces.length ? (
          <Table headers={['Name', 'Visibility', 'Version', 'Created']} label="Spaces">
            {spaces.map((space) => (
              <tr key={space.id}>
                <Cell>
                  <a href={space.path} className="text-link">
                    {space.name}
                  </a>
                </Cell>
                <Cell>{space.visibility === 'public' ? 'public' : 'members only'}</Cell>
                <Cell>{space.latestVersion || '—'}</Cell>
                <Cell>{formatDate(space.createdAt)}</Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No spaces yet.</EmptyState>
        )}
      </Card>
      {workspaceRoleCan(workspace.role, 'push') ? (
        <Card title="New space" id="new-space">
          <CreateSpaceForm workspace={workspace.slug} />
        </Card>
      ) : null}
    </WorkspaceFrame>
  );
}
