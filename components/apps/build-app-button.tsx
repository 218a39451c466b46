'use client';
// The Build button of a room (or live space): builds its first page, or the
// page given, into a new app and opens the app's page; with `appId`, a new
// preview version of that app ("Rebuild preview"), which can then be promoted.
// Given the room's `pages`, more than one, it offers them to choose from,
// starting from `pageId`.
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { SelectField } from '@/components/ui/select.tsx';
import { toastAfterReload } from '@/components/ui/toast.tsx';
import { web } from '@/lib/web/api-client.ts';
import { liveSpacesApi, roomsApi } from '@/lib/schemas/rooms.ts';
import { useAction } from '@/lib/web/use-action.ts';

type Props = { roomId: string; kind?: 'room' | 'live'; pageId?: string | null; pages?: { id: string; title: string }[]; appId?: string; label?: string };

export function BuildAppButton({ roomId, kind = 'room', pageId, pages = [], appId, label = 'Build app' }: Props) {
  const { busy, error, run } = useAction();
  // The page built last, unless it is gone from the room.
  const [chosen, setChosen] = useState(pages.find((p) => p.id === pageId)?.id ?? pages[0]?.id);
  const endpoint = kind === 'room' ? roomsApi.build : liveSpacesApi.build;
  const page = pages.length > 1 ? chosen : pageId;
  return (
    <span className="inline-flex flex-col gap-1">
      <span className="flex flex-wrap items-end gap-2">
        {pages.length > 1 ? (
          <SelectField label="Page" value={chosen} disabled={busy} onChange={(event) => setChosen(event.target.value)}>
            {pages.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title}
              </option>
            ))}
          </SelectField>
        ) : null}
        <Button
          type="button"
          disabled={busy}
          onClick={() => void run(() => web.call(endpoint, { params: { id: roomId }, body: { ...(page ? { pageId: page } : {}), ...(appId ? { appId } : {}) } }), ({ app }) => {
              // The app's page loads anew; the toast waits for it.
              toastAfterReload(appId ? `Preview version ${app.previewVersion} is built.` : `${app.name} is built: its preview is below.`);
              window.location.assign(`/apps/${app.id}`);
            })
          }
        >
          {busy ? 'Building…' : label}
        </Button>
      </span>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}
