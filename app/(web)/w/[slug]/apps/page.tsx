import type { Metadata } from 'next';
import { BuildAppButton } from '@/components/apps/build-app-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { listApps } from '@/lib/apps/apps.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { listRooms, roomPages } from '@/lib/rooms/rooms.ts';
import { formatDate } from '@/lib/web/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';

export const metadata: Metadata = { title: 'Apps' };
export const dynamic = 'force-dynamic';

export default async function AppsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/apps`);
  const [workspace, workspaces, apps, rooms, liveSpaces] = await Promise.all([
    orNotFound(getWorkspace(caller, slug)),
    listWorkspaces(caller),
    listApps(caller, { workspace: slug }),
    listRooms(caller, 'room', slug),
    listRooms(caller, 'live', slug),
  ]);
  const kindOf = (room: { path: string }) => (room.path.startsWith('/rooms/') ? 'room' : 'live');
  const buildable = [...rooms, ...liveSpaces].filter((r) => r.caps.edit);
  const pages = await Promise.all(buildable.map((room) => roomPages(caller, kindOf(room), room.id)));
  return (
    <WorkspaceFrame actor={caller.actor} workspace={workspace} workspaces={workspaces} tab="apps">
      <Card title={`Apps (${apps.length})`}>
        {apps.length ? (
          <Table headers={['Name', 'Status', 'Room', 'Live', 'Created']} label="Apps">
            {apps.map((app) => (
              <tr key={app.id}>
                <Cell>
                  <a href={`/apps/${app.id}`} className="text-link">
                    {app.name}
                  </a>
                </Cell>
                <Cell>{app.status}</Cell>
                <Cell>{app.room.name}</Cell>
                <Cell>{app.liveUrl ? <a className="text-link" href={app.liveUrl}>v{app.liveVersion}</a> : '—'}</Cell>
                <Cell>{formatDate(app.createdAt)}</Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No apps yet. Build one from a room below.</EmptyState>
        )}
      </Card>
      <Card title="Build from a room">
        {buildable.length ? (
          <ul className="divide-y divide-slate-100" aria-label="Rooms">
            {buildable.map((room, i) => (
              <li key={room.id} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
                <span>
                  {room.name} <span className="text-muted">({room.appCount} app{room.appCount === 1 ? '' : 's'})</span>
                </span>
                <BuildAppButton roomId={room.id} kind={kindOf(room)} pages={pages[i]} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState>No room you can edit in this workspace.</EmptyState>
        )}
      </Card>
    </WorkspaceFrame>
  );
}
