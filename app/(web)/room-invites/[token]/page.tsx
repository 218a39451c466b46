import type { Metadata } from 'next';
import { RoomInvitePage } from '@/components/rooms/invite-page.tsx';

export const metadata: Metadata = { title: 'Invitation' };
export const dynamic = 'force-dynamic';

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <RoomInvitePage kind="room" token={token} />;
}
