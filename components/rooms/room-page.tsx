import { Page } from '@/components/page.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { getRoom } from '@/lib/rooms/rooms.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { KIND, type RoomKindName } from './kinds.ts';
import { RoomView } from './room-view.tsx';

/** A room or live space: the record from the domain function; everything live happens in RoomView. */
export async function RoomPage({ kind, id }: { kind: RoomKindName; id: string }) {
  const caller = await requirePageCaller(`/${KIND[kind].prefix}/${id}`);
  const room = await orNotFound(getRoom(caller, kind, id));
  return (
    <Page actor={caller.actor} width="max-w-7xl">
      <RoomView kind={kind} room={room} me={caller.actor.user} />
    </Page>
  );
}
