import { Page } from '@/components/page.tsx';
import { Card } from '@/components/ui/card.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { AcceptRoomInvite } from './accept-invite.tsx';
import { KIND, type RoomKindName } from './kinds.ts';

/** Where an invite link (`/room-invites/<token>`, `/live-space-invites/<token>`) lands: sign in, then join. */
export async function RoomInvitePage({ kind, token }: { kind: RoomKindName; token: string }) {
  const path = `/${kind === 'room' ? 'room-invites' : 'live-space-invites'}/${token}`;
  const caller = await requirePageCaller(path);
  const noun = KIND[kind].noun.toLowerCase();
  return (
    <Page actor={caller.actor} title={`Join a ${noun}`}>
      <Card label="Invitation">
        <p className="mb-4 text-sm text-muted">
          You were invited to a {noun}. Joining adds @{caller.actor.user.handle} to it with the role the invitation names; the link then stops
          working for anyone else.
        </p>
        <AcceptRoomInvite kind={kind} token={token} />
      </Card>
    </Page>
  );
}
