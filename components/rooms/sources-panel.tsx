'use client';

import { useCallback, useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import type { Source } from '@/lib/schemas/rooms.ts';
import { web } from '@/lib/web/api-client.ts';
import { humanMessage } from '@/lib/web/human-errors.ts';
import type { Caps } from './connection.ts';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { KIND, type RoomKindName } from './kinds.ts';
import { useRoomList } from './use-room-list.ts';

function size(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Multipart upload with progress: fetch cannot report upload progress, XMLHttpRequest can. */
function upload(path: string, file: File, onProgress: (fraction: number) => void): Promise<Source> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const error = (xhr.response as { error?: { code?: string; message?: string } } | null)?.error;
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as Source);
      else reject(new Error(error?.message ? humanMessage(error.code ?? 'error', error.message) : `Upload failed (${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted.'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/**
 * Files attached to the room: upload with progress, hide from AI, delete.
 * `changes` changes when the room's sources changed elsewhere (the socket
 * says so): the list is read again.
 */
export function SourcesPanel({ kind, roomId, caps, me, changes }: { kind: RoomKindName; roomId: string; caps: Caps; me: string; changes: number }) {
  const confirm = useConfirm();
  const { api, prefix } = KIND[kind];
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const read = useCallback(async () => (await web.call(api.sources, { params: { id: roomId } })).sources, [api, roomId]);
  const { value: sources, error, act } = useRoomList(read, changes);

  async function pick(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      setProgress({ name: file.name, fraction: 0 });
      await act(() => upload(`/v1/${prefix}/${roomId}/sources`, file, (fraction) => setProgress({ name: file.name, fraction })), () => `Added ${file.name}.`);
    }
    setProgress(null);
  }

  return (
    <section aria-label="Sources" className="space-y-3 text-sm">
      {caps.comment ? (
        <label className="block cursor-pointer rounded-md border border-dashed border-slate-300 p-3 text-center text-muted hover:bg-slate-50">
          Attach files
          <input type="file" multiple className="sr-only" disabled={progress !== null} onChange={(e) => pick(e.currentTarget.files).then(() => (e.target.value = ''))} />
        </label>
      ) : null}
      {progress ? (
        <div>
          <span>
            Uploading {progress.name}… {Math.round(progress.fraction * 100)}%
          </span>
          <progress aria-label={`Upload of ${progress.name}`} className="block w-full" value={progress.fraction} max={1} />
        </div>
      ) : null}
      {sources === null ? (
        <p className="text-muted">Loading…</p>
      ) : sources.length === 0 ? (
        <p className="text-muted">No sources yet.</p>
      ) : (
        <ul aria-label="Source files" className="space-y-2">
          {sources.map((s) => (
            <li key={s.id} className="rounded-md border border-line p-2">
              <div className="flex items-baseline justify-between gap-2">
                <a className="font-medium text-link hover:underline" href={`/v1/${prefix}/${roomId}/sources/${s.id}/raw`} target="_blank" rel="noreferrer">
                  {s.name}
                </a>
                <span className="text-xs text-muted">{size(s.size)}</span>
              </div>
              <p className="text-xs text-muted">
                {s.status === 'ready' ? `${s.extractedChars.toLocaleString('en')} characters read` : 'Could not be read'}
                {s.uploadedBy ? ` · @${s.uploadedBy.handle}` : ''}
                {s.hiddenFromAi ? ' · hidden from AI' : ''}
              </p>
              {s.summary ? <p className="mt-1 line-clamp-3 text-xs text-muted">{s.summary}</p> : null}
              <div className="mt-1 flex gap-3 text-xs">
                {caps.edit ? (
                  <label className="flex items-center gap-1">
                    <input type="checkbox" checked={s.hiddenFromAi} onChange={(e) => {
                        const hidden = e.target.checked;
                        act(() => web.call(api.patchSource, { params: { id: roomId, sourceId: s.id }, body: { hiddenFromAi: hidden } }), () => (hidden ? `${s.name} is hidden from AI suggestions.` : `AI suggestions may read ${s.name} again.`));
                      }} />
                    Hide from AI
                  </label>
                ) : null}
                {caps.edit || s.uploadedBy?.id === me ? (
                  <button
                    type="button"
                    className="text-danger hover:underline"
                    onClick={async () => {
                      if (await confirm({ title: `Delete ${s.name}?`, confirmLabel: 'Delete source', danger: true })) act(() => web.call(api.deleteSource, { params: { id: roomId, sourceId: s.id } }), () => `Deleted ${s.name}.`);
                    }}
                  >
                    Delete
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </section>
  );
}
