'use client';

import { useCallback, useState, type FormEvent } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import type { LiveSpace, Room, RoomInvite, RoomMember } from '@/lib/schemas/rooms.ts';
import { web } from '@/lib/web/api-client.ts';
import { formatDate } from '@/lib/web/format.ts';
import type { Caps } from './connection.ts';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { toastAfterReload } from '@/components/ui/toast.tsx';
import { KIND, type RoomKindName } from './kinds.ts';
import { useRoomList } from './use-room-list.ts';

const ROLES = ['owner', 'editor', 'commenter', 'viewer'] as const;
const INVITE_ROLES = ['editor', 'commenter', 'viewer'] as const;
const LINK = ['none', 'viewer', 'commenter', 'editor'] as const;
type Role = (typeof ROLES)[number];

const select = 'rounded-md border border-slate-300 bg-surface px-1 py-0.5 text-sm';

/**
 * Who is in the room and with what role; managers add people by handle,
 * invite by e-mail, change roles, remove people and set link access. A change
 * reaches the other person's open socket within seconds (the server re-checks),
 * and every open panel of the room reads the list again.
 */
export function PeoplePanel({
  kind,
  room,
  caps,
  me,
  present,
  changes,
}: {
  kind: RoomKindName;
  room: Room | LiveSpace;
  caps: Caps;
  me: { id: string; handle: string };
  present: { handle?: string }[];
  /** Changes when the room's people changed elsewhere: the list is read again. */
  changes: number;
}) {
  const confirm = useConfirm();
  const { api, prefix } = KIND[kind];
  const id = room.id;
  const [linkAccess, setLinkAccess] = useState(room.linkAccess);
  const [created, setCreated] = useState<RoomInvite | null>(null);
  const read = useCallback(() => web.call(api.people, { params: { id } }), [api, id]);
  const { value, error, busy, act } = useRoomList(read, changes);
  const members: RoomMember[] = value?.members ?? [];
  const invites: RoomInvite[] = value?.invites ?? [];

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const to = String(data.get('to') ?? '').trim().replace(/^@/, '');
    if (!to) return;
    act(
      async () => {
        const answer = await web.call(api.addPerson, { params: { id }, body: { to, role: String(data.get('role')) as (typeof INVITE_ROLES)[number] } });
        setCreated(answer.invite?.url ? answer.invite : null);
        form.reset();
        return answer;
      },
      // An e-mail invitation is told in its own box, with the link to pass on.
      (answer) => (answer.member ? `Added @${answer.member.user.handle} as ${answer.member.role}.` : null),
    );
  }

  const here = new Set(present.map((p) => p.handle).filter(Boolean));

  return (
    <section aria-label="People" className="space-y-4 text-sm">
      <ul aria-label="Members" className="space-y-2">
        {members.map((m) => {
          const self = m.user.id === me.id;
          return (
            <li key={m.user.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {here.has(m.user.handle) ? <span title="Here now" className="mr-1 inline-block h-2 w-2 rounded-full bg-green-500" /> : null}
                {m.user.name ? <span className="font-medium">{m.user.name} </span> : null}
                <span className="text-muted">@{m.user.handle}</span>
                {self ? <span className="text-muted"> (you)</span> : null}
                <span className="block text-xs text-muted">{m.via === 'workspace' ? 'from the workspace' : 'added to this room'}</span>
              </span>
              <span className="flex items-center gap-2">
                {caps.manage && !self ? (
                  <select
                    aria-label={`Role of @${m.user.handle}`}
                    className={select}
                    value={m.role}
                    disabled={busy}
                    onChange={(e) => {
                      const role = e.target.value as Role;
                      // Effective at once, a demotion too: the server re-checks their open socket.
                      act(
                        () => web.call(api.changeRole, { params: { id, handle: m.user.handle }, body: { role } }),
                        () => `@${m.user.handle} is now ${role === 'owner' || role === 'editor' ? 'an' : 'a'} ${role}, from now on.`,
                      );
                    }}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span>{m.role}</span>
                )}
                {m.via === 'room' && (caps.manage || self) ? (
                  <button
                    type="button"
                    className="text-danger hover:underline"
                    disabled={busy}
                    onClick={async () => {
                      if (!(await confirm({ title: self ? `Leave this ${KIND[kind].noun.toLowerCase()}?` : `Remove @${m.user.handle}?`, confirmLabel: self ? 'Leave' : 'Remove', danger: true }))) return;
                      act(
                        async () => {
                          await web.call(api.removePerson, { params: { id, handle: m.user.handle } });
                          if (self) {
                            toastAfterReload(`You left the ${KIND[kind].noun.toLowerCase()}.`);
                            window.location.assign(`/${prefix}`);
                          }
                        },
                        () => (self ? null : `Removed @${m.user.handle}.`),
                      );
                    }}
                  >
                    {self ? 'Leave' : 'Remove'}
                  </button>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>

      {caps.manage ? (
        <>
          <form onSubmit={add} aria-label="Add someone" className="space-y-2 border-t border-line pt-3">
            <h3 className="font-semibold">Add someone</h3>
            <label className="block">
              Handle or e-mail
              <input name="to" required maxLength={254} className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <div className="flex items-center gap-2">
              <label>
                Role{' '}
                <select name="role" defaultValue="editor" className={select}>
                  {INVITE_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={busy} className="rounded-md bg-brand px-3 py-1 text-white disabled:opacity-50">
                Add
              </button>
            </div>
            <p className="text-xs text-muted">A handle joins at once; an e-mail address gets a link valid 7 days, for one use.</p>
          </form>
          {created ? (
            <div role="status" aria-label="New invite link" className="rounded-md bg-brand-soft p-2 text-xs">
              {created.emailed ? `E-mailed to ${created.email}. ` : `Not e-mailed (no mail server): send it to ${created.email} yourself. `}
              Shown only once:
              <input aria-label="Invite link" readOnly value={created.url} className="mt-1 block w-full rounded border border-slate-300 px-1" onFocus={(e) => e.currentTarget.select()} />
            </div>
          ) : null}
          {invites.length ? (
            <div>
              <h3 className="font-semibold">Pending invites</h3>
              <ul aria-label="Pending invites" className="space-y-1">
                {invites.map((invite) => (
                  <li key={invite.id} className="flex items-center justify-between gap-2">
                    <span>
                      {invite.email} · {invite.role} · until {formatDate(invite.expiresAt)}
                    </span>
                    <button type="button" className="text-red-700 hover:underline" disabled={busy} onClick={() => act(() => web.call(api.revokeInvite, { params: { id, inviteId: invite.id } }), () => `Revoked the invitation of ${invite.email}.`)}>
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <label className="block border-t border-line pt-3">
            <span className="font-semibold">Anyone signed in with the link</span>
            <select
              aria-label="Link access"
              className={`${select} mt-1 block`}
              value={linkAccess}
              disabled={busy}
              onChange={(e) => {
                const value = e.target.value as (typeof LINK)[number];
                act(
                  async () => {
                    await web.call(api.patch, { params: { id }, body: { linkAccess: value } });
                    setLinkAccess(value);
                  },
                  () => (value === 'none' ? 'The link no longer lets anyone in.' : `Anyone signed in with the link can join as ${value}.`),
                );
              }}
            >
              {LINK.map((l) => (
                <option key={l} value={l}>
                  {l === 'none' ? 'has no access' : `can join as ${l}`}
                </option>
              ))}
            </select>
          </label>
        </>
      ) : null}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </section>
  );
}
