import { Page } from '@/components/page.tsx';
import { Card } from '@/components/ui/card.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { listRooms } from '@/lib/rooms/rooms.ts';
import { listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { CreateRoomForm } from './create-room-form.tsx';
import { KIND, type RoomKindName } from './kinds.ts';
import { RoomListCard } from './room-list.tsx';

/** The rooms (or live spaces) page: the list, optionally of one workspace, and the creation form. */
export async function RoomListPage({ kind, workspace }: { kind: RoomKindName; workspace?: string }) {
  const { plural, noun, prefix } = KIND[kind];
  const caller = await requirePageCaller(`/${prefix}${workspace ? `?workspace=${encodeURIComponent(workspace)}` : ''}`);
  const [rooms, workspaces] = await Promise.all([listRooms(caller, kind, workspace), listWorkspaces(caller)]);
  const creatable = workspaces.filter((w) => w.role !== 'viewer');
  const other = KIND[kind === 'room' ? 'live' : 'room'];
  return (
    <Page actor={caller.actor} title={plural}>
      <p className="-mt-4 mb-6 text-sm text-muted">
        {workspace ? `In /${workspace}. ` : ''}
        {kind === 'room' ? 'Rooms are shared documents with chat, people and sources.' : 'Live spaces are rooms without AI suggestions, with image blocks.'}{' '}
        See also <a className="text-link underline" href={`/${other.prefix}`}>{other.plural.toLowerCase()}</a>.
      </p>
      <div className="space-y-6">
        <RoomListCard kind={kind} rooms={rooms} />
        <Card title={`New ${noun.toLowerCase()}`}>
          <CreateRoomForm kind={kind} workspaces={creatable} current={workspace} />
        </Card>
      </div>
    </Page>
  );
}
