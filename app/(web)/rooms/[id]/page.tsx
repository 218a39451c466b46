import type { Metadata } from 'next';
import { RoomPage } from '@/components/rooms/room-page.tsx';

export const metadata: Metadata = { title: 'Rooms' };
export const dynamic = 'force-dynamic';

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RoomPage kind="room" id={id} />;
}
