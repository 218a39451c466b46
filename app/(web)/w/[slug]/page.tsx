import type { Metadata } from 'next';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { assignableRoles, mayRemoveMember, workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { formatDate } from '@/lib/web/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { memberRoomGrants } from '@/lib/workspaces/members.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { InviteByHandleForm, RemoveMemberButton, RemoveMemberDialog, RoleControl } from './member-controls.tsx';

export const metadata: Metadata = { title: 'Members' };
export const dynamic = 'force-dynamic';

function Person({ user }: { user: { handle: string; name: string | null } }) {
  return (
    <a href={`/u/${user.handle}`} className="hover:underline">
      {user.name ? <span className="font-medium">{user.name} </span> : null}
      <span className="text-muted">@{user.handle}</span>
    </a>
  );
}

export default async function MembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}`);
  const { actor } = caller;
  const [workspace, workspaces] = await Promise.all([orNotFound(getWorkspace(caller, slug)), listWorkspaces(caller)]);
  const admin = workspaceRoleCan(workspace.role, 'admin');
  // What removing each member takes away, for the remove dialog.
  const roomsOf = admin ? await memberRoomGrants(caller, slug) : {};
  const members = workspace.members.filter((m) => m.status === 'accepted');
  const pending = workspace.members.filter((m) => m.status === 'pending');

  return (
    <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="members">
      <p className="text-sm"><a className="text-link underline" href={`/rooms?workspace=${workspace.slug}`}>Rooms</a> · <a className="text-link underline" href={`/live-spaces?workspace=${workspace.slug}`}>Live spaces</a></p>
      <Card title={`Members (${members.length})`}>
        <Table headers={['Person', 'Role', 'Joined', '']} label="Members">
          {members.map((m) => {
            const self = m.user.id === actor.user.id;
            return (
              <tr key={m.user.id}>
                <Cell>
                  <Person user={m.user} />
                  {self ? <span className="text-muted"> (you)</span> : null}
                </Cell>
                <Cell>
                  <RoleControl slug={workspace.slug} handle={m.user.handle} role={m.role} options={assignableRoles(workspace.role, m.role)} />
                </Cell>
                <Cell>{m.joinedAt ? formatDate(m.joinedAt) : ''}</Cell>
                <Cell>
                  {self ? (
                    <RemoveMemberButton slug={workspace.slug} handle={m.user.handle} kind="leave" />
                  ) : mayRemoveMember(workspace.role, m.role) ? (
                    <RemoveMemberDialog slug={workspace.slug} handle={m.user.handle} rooms={roomsOf[m.user.handle] ?? []} />
                  ) : null}
                </Cell>
              </tr>
            );
          })}
        </Table>
      </Card>

      {admin ? (
        <>
          <Card title="Invite by handle" id="invite">
            <p className="mb-3 text-sm text-muted">
              The person sees the invitation on their dashboard and joins when they accept it. To invite someone without an
              account, make an <a className="text-link underline" href={`/w/${workspace.slug}/invites`}>invite link</a>.
            </p>
            <InviteByHandleForm slug={workspace.slug} roles={assignableRoles(workspace.role)} />
          </Card>

          <Card title="Pending invitations">
            {pending.length === 0 ? (
              <EmptyState>No invitations waiting for an answer.</EmptyState>
            ) : (
              <Table headers={['Person', 'Offered role', 'Invited by', 'Invited', '']} label="Pending invitations">
                {pending.map((m) => (
                  <tr key={m.user.id}>
                    <Cell>
                      <Person user={m.user} />
                    </Cell>
                    <Cell>
                      <RoleControl slug={workspace.slug} handle={m.user.handle} role={m.role} options={assignableRoles(workspace.role, m.role)} />
                    </Cell>
                    <Cell>{m.invitedBy ? `@${m.invitedBy.handle}` : ''}</Cell>
                    <Cell>{formatDate(m.invitedAt)}</Cell>
                    <Cell>
                      {mayRemoveMember(workspace.role, m.role) ? <RemoveMemberButton slug={workspace.slug} handle={m.user.handle} kind="cancel" /> : null}
                    </Cell>
                  </tr>
                ))}
              </Table>
            )}
          </Card>
        </>
      ) : null}
    </WorkspaceFrame>
  );
}
