import type { Metadata } from 'next';
import { Card, EmptyState, ErrorNote } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { assignableRoles, rolesThatCan, workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { formatDate } from '@/lib/web/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { listInviteLinks } from '@/lib/workspaces/invite-links.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { CreateInviteLinkForm } from './invite-link-controls.tsx';

export const metadata: Metadata = { title: 'Invite links' };
export const dynamic = 'force-dynamic';

export default async function InviteLinksPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/invites`);
  const { actor } = caller;
  const [workspace, workspaces] = await Promise.all([orNotFound(getWorkspace(caller, slug)), listWorkspaces(caller)]);
  if (!workspaceRoleCan(workspace.role, 'admin')) {
    return (
      <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="invites">
        <ErrorNote>Invite links are managed by the {rolesThatCan('admin')} of this workspace.</ErrorNote>
      </WorkspaceFrame>
    );
  }
  const { invites } = await listInviteLinks(caller, slug);
  return (
    <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="invites">
      <Card title="New invite link">
        <p className="mb-3 text-sm text-muted">
          Whoever opens the link can sign in and join with its role, until it expires, is used up or is revoked.
        </p>
        <CreateInviteLinkForm slug={workspace.slug} roles={assignableRoles(workspace.role)} />
      </Card>
      <Card title="Live invite links">
        {invites.length === 0 ? (
          <EmptyState>No live invite links.</EmptyState>
        ) : (
          <Table headers={['Role', 'For', 'Uses', 'Expires', 'Created by', '']} label="Live invite links">
            {invites.map((invite) => (
              <tr key={invite.id}>
                <Cell>{invite.role}</Cell>
                <Cell>{invite.email ?? 'anyone with the link'}</Cell>
                <Cell>
                  {invite.uses}
                  {invite.maxUses === null ? '' : ` of ${invite.maxUses}`}
                </Cell>
                <Cell>{formatDate(invite.expiresAt)}</Cell>
                <Cell>{invite.createdBy ? `@${invite.createdBy.handle}` : ''}</Cell>
                <Cell>
                  <DeleteButton
                    path={`/v1/workspaces/${workspace.slug}/invites/${invite.id}`}
                    label="Revoke"
                    question="Revoke this invite link? Nobody can join with it afterwards."
                  />
                </Cell>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </WorkspaceFrame>
  );
}
