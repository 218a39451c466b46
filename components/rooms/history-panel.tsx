'use client';

import { useCallback, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { Field, SelectField } from '@/components/ui/field.tsx';
import { Time } from '@/components/ui/time.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import type { PageDiff, PageSnapshot } from '@/lib/schemas/rooms.ts';
import { web } from '@/lib/web/api-client.ts';
import { formatTime } from '@/lib/web/format.ts';
import type { Caps } from './connection.ts';
import { KIND, type RoomKindName } from './kinds.ts';
import { useRoomList } from './use-room-list.ts';

const NOW = 'current';

const label = (s: PageSnapshot) => (s.name ? `“${s.name}”` : `the version of ${formatTime(s.createdAt)}`);

function who(s: PageSnapshot): string {
  if (s.reason === 'restore') return s.createdBy ? `before @${s.createdBy.handle} restored` : 'before a restore';
  const people = s.createdBy ? [s.createdBy] : s.editors;
  return people.length ? people.map((u) => `@${u.handle}`).join(', ') : s.reason === 'edits' ? 'as the page was first opened' : '';
}

/**
 * The current page's history: its snapshots (newest first, with who changed
 * it), a diff between any two (or one and the page now), keeping the page
 * under a name, and restore after a confirm dialog. A restore reaches the
 * editor over the socket like anyone's edit; the toast offers to undo it.
 */
export function HistoryPanel({ kind, roomId, pageId, pageTitle, caps }: { kind: RoomKindName; roomId: string; pageId: string; pageTitle: string; caps: Caps }) {
  const { api } = KIND[kind];
  const confirm = useConfirm();
  const toast = useToast();
  const params = { id: roomId, pageId };
  const read = useCallback(async () => (await web.call(api.history, { params: { id: roomId, pageId } })).snapshots, [api, roomId, pageId]);
  const { value: snapshots, error, busy, act } = useRoomList(read, 0);
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState(NOW);
  const [diff, setDiff] = useState<PageDiff | null>(null);

  async function keep(event: FormEvent) {
    event.preventDefault();
    const kept = name.trim();
    if (!kept) return;
    await act(() => web.call(api.nameSnapshot, { params, body: { name: kept } }), () => `Kept this page as “${kept}”.`);
    setName('');
  }

  async function compare() {
    const base = from || snapshots?.[0]?.id;
    if (!base) return;
    await act(async () => setDiff(await web.call(api.historyDiff, { params, query: { from: base, to } })));
  }

  async function restore(snapshot: PageSnapshot) {
    const yes = await confirm({
      title: `Restore ${label(snapshot)}?`,
      description: 'The page becomes as it was then, for everyone connected. The page as it is now is kept in its history first, so this can be undone.',
      confirmLabel: 'Restore',
    });
    if (!yes) return;
    await act(
      () => web.call(api.restore, { params: { ...params, snapshotId: snapshot.id } }),
      (answer) => {
        toast({
          message: `Restored ${label(snapshot)}.`,
          action: { label: 'Undo', run: () => act(() => web.call(api.restore, { params: { ...params, snapshotId: answer.before.id } }), () => 'Restore undone.') },
        });
        setDiff(null);
        return null;
      },
    );
  }

  return (
    <section aria-label="History" className="space-y-4 text-sm">
      <p className="text-muted">
        Versions of <span className="font-medium text-slate-900 dark:text-slate-100">{pageTitle}</span>, kept as people edit (at most one every few minutes) for 30 days; older ones one a week.
      </p>
      {caps.edit ? (
        <form onSubmit={keep} className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <Field label="Keep this version as" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="e.g. Before the review" />
          </div>
          <Button type="submit" variant="secondary" disabled={busy || !name.trim()}>
            Keep
          </Button>
        </form>
      ) : null}
      {snapshots === null ? (
        <p className="text-muted">Loading…</p>
      ) : snapshots.length === 0 ? (
        <p className="text-muted">No versions of this page yet.</p>
      ) : (
        <>
          <ol aria-label="Versions" className="space-y-2">
            {snapshots.map((s) => (
              <li key={s.id} className="rounded-md border border-line p-2">
                <div className="flex items-baseline justify-between gap-2">
                  <span className="font-medium">{s.name ?? <Time ms={s.createdAt} />}</span>
                  {caps.edit ? (
                    <Button type="button" size="sm" variant="ghost" disabled={busy} onClick={() => restore(s)} aria-label={`Restore ${label(s)}`}>
                      Restore…
                    </Button>
                  ) : null}
                </div>
                <p className="text-xs text-muted">
                  {s.name ? (
                    <>
                      <Time ms={s.createdAt} />
                      {' · '}
                    </>
                  ) : null}
                  {who(s)}
                </p>
              </li>
            ))}
          </ol>
          <fieldset className="space-y-2 rounded-md border border-line p-2">
            <legend className="px-1 font-medium">Compare</legend>
            <SelectField label="From" value={from || snapshots[0].id} onChange={(e) => setFrom(e.target.value)}>
              {snapshots.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name ? `${s.name} (${formatTime(s.createdAt)})` : formatTime(s.createdAt)}
                </option>
              ))}
            </SelectField>
            <SelectField label="To" value={to} onChange={(e) => setTo(e.target.value)}>
              <option value={NOW}>The page now</option>
              {snapshots.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name ? `${s.name} (${formatTime(s.createdAt)})` : formatTime(s.createdAt)}
                </option>
              ))}
            </SelectField>
            <Button type="button" variant="secondary" size="sm" disabled={busy} onClick={compare}>
              Show changes
            </Button>
          </fieldset>
        </>
      )}
      {diff ? <DiffView diff={diff} /> : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </section>
  );
}

/** A line diff of two versions' Markdown: removed lines struck in red, added ones in green, each with its sign for those who cannot tell the colours apart. */
function DiffView({ diff }: { diff: PageDiff }) {
  return (
    <figure aria-label="Changes" className="space-y-1">
      <figcaption className="text-xs text-muted">
        {diff.added} lines added, {diff.removed} removed
      </figcaption>
      {diff.added + diff.removed === 0 ? (
        <p className="text-muted">No differences.</p>
      ) : (
        <pre className="max-h-96 overflow-auto rounded-md border border-line p-2 font-mono text-xs whitespace-pre-wrap" tabIndex={0}>
          {diff.lines.map((line, i) =>
            // A blank line (between paragraphs) reads the same added or removed: shown plain.
            !line.text.trim() ? (
              <span key={i} className="block">
                {' '}
              </span>
            ) : line.op === 'add' ? (
              <ins key={i} className="block text-success no-underline">
                + {line.text}
              </ins>
            ) : line.op === 'remove' ? (
              <del key={i} className="block text-danger">
                − {line.text}
              </del>
            ) : (
              <span key={i} className="block text-muted">
                {'  '}
                {line.text}
              </span>
            ),
          )}
        </pre>
      )}
    </figure>
  );
}
