import type { Metadata } from 'next';
import { RoomListPage } from '@/components/rooms/room-list-page.tsx';

export const metadata: Metadata = { title: 'Rooms' };
export const dynamic = 'force-dynamic';

export default async function Page({ searchParams }: { searchParams: Promise<{ workspace?: string }> }) {
  const { workspace } = await searchParams;
  return <RoomListPage kind="room" workspace={typeof workspace === 'string' && workspace ? workspace : undefined} />;
}
