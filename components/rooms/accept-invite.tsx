'use client';

import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { KIND, type RoomKindName } from './kinds.ts';

/** Accepts an e-mailed invite (single use) and opens the room. */
export function AcceptRoomInvite({ kind, token }: { kind: RoomKindName; token: string }) {
  const { busy, error, run } = useAction();
  const { noun, prefix, api } = KIND[kind];
  return (
    <div className="space-y-3">
      <Button
        disabled={busy}
        onClick={() =>
          run(
            () => web.call(api.acceptInvite, { body: { token } }),
            (answer) => window.location.assign(`/${prefix}/${(answer as { roomId?: string; liveSpaceId?: string }).roomId ?? (answer as { liveSpaceId: string }).liveSpaceId}`),
          )
        }
      >
        Join the {noun.toLowerCase()}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
