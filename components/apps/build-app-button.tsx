'use client';
// The Build button of a room (or live space): builds its first page, or the
// page given, into a new app and opens the app's page; with `appId`, a new
// preview version of that app ("Rebuild preview"), which can then be promoted.
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { web } from '@/lib/web/api-client.ts';
import { liveSpacesApi, roomsApi } from '@/lib/schemas/rooms.ts';
import { useAction } from '@/lib/web/use-action.ts';

type Props = { roomId: string; kind?: 'room' | 'live'; pageId?: string | null; appId?: string; label?: string };

export function BuildAppButton({ roomId, kind = 'room', pageId, appId, label = 'Build app' }: Props) {
  const { busy, error, run } = useAction();
  const endpoint = kind === 'room' ? roomsApi.build : liveSpacesApi.build;
  return (
    <span className="inline-flex flex-col gap-1">
      <Button
        type="button"
        disabled={busy}
        onClick={() => void run(() => web.call(endpoint, { params: { id: roomId }, body: { ...(pageId ? { pageId } : {}), ...(appId ? { appId } : {}) } }), ({ app }) => window.location.assign(`/apps/${app.id}`))}
      >
        {busy ? 'Building…' : label}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}
