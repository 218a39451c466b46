import { Page } from '@/components/page.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { getRoom } from '@/lib/rooms/rooms.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { KIND, type RoomKindName } from './kinds.ts';
import { RoomView } from './room-view.tsx';

/** A room or live space: the record from the domain function; everything live happens in RoomView. */
export async function RoomPage({ kind, id }: { kind: RoomKindName; id: string }) {
  const { prefix, plural } = KIND[kind];
  const caller = await requirePageCaller(`/${prefix}/${id}`);
  const room = await orNotFound(getRoom(caller, kind, id));
  const { slug, name } = room.workspace;
  return (
    <Page actor={caller.actor} workspace={slug} crumbs={[{ label: name, href: `/w/${slug}` }, { label: plural, href: `/${prefix}?workspace=${slug}` }, { label: room.name }]}>
      <RoomView kind={kind} room={room} me={caller.actor.user} />
    </Page>
  );
}
