'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { control, Field } from '@/components/ui/field.tsx';
import { Dialog, useConfirm } from '@/components/ui/dialog.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { FormFooter } from '@/components/ui/form-footer.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';
import type { MemberRoom } from '@/lib/workspaces/members.ts';

type Role = 'owner' | 'admin' | 'member' | 'viewer';

const memberPath = (slug: string, handle: string) => `/v1/workspaces/${slug}/members/${encodeURIComponent(handle)}`;

/** A member's role, as a menu of the roles the viewer may give them. */
export function RoleControl({ slug, handle, role, options }: { slug: string; handle: string; role: Role; options: Role[] }) {
  const router = useRouter();
  const { busy, error, run } = useAction();
  const confirm = useConfirm();
  const toast = useToast();
  async function change(next: Role, select: HTMLSelectElement) {
    // Making someone owner cannot be undone by the person doing it if they are an admin: ask first.
    if (next === 'owner' && !(await confirm({ title: `Make @${handle} an owner of ${slug}?`, description: 'Owners can do everything, including removing other owners.', confirmLabel: 'Make owner', danger: true }))) {
      select.value = role;
      return;
    }
    await run(
      () => web.call(workspacesApi.changeRole, { params: { slug, handle }, body: { role: next } }),
      () => {
        toast({ message: `@${handle} is now ${next === 'admin' ? 'an' : 'a'} ${next}.` });
        router.refresh();
      },
    );
  }
  if (options.length <= 1) return <span>{role}</span>;
  return (
    <div>
      <select
        aria-label={`Role of @${handle}`}
        className={`${control} mt-0 w-auto py-1`}
        defaultValue={role}
        key={role}
        disabled={busy}
        onChange={(event) => void change(event.target.value as Role, event.target)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}

/** Leaves the workspace (oneself) or cancels an invitation. */
export function RemoveMemberButton({ slug, handle, kind }: { slug: string; handle: string; kind: 'leave' | 'cancel' }) {
  const router = useRouter();
  const question = {
    leave: `Leave ${slug}? You will need a new invitation to come back, and you lose its rooms, live spaces and apps.`,
    cancel: `Cancel the invitation of @${handle}?`,
  }[kind];
  return (
    <DeleteButton
      path={memberPath(slug, handle)}
      label={{ leave: 'Leave workspace', cancel: 'Cancel invitation' }[kind]}
      question={question}
      then={kind === 'leave' ? () => router.push('/') : undefined}
      done={{ leave: `You left ${slug}.`, cancel: `Cancelled the invitation of @${handle}.` }[kind]}
    />
  );
}

const KIND_NOUN = { room: 'room', live: 'live space' } as const;

/**
 * Removes a member: the dialog names the rooms and live spaces (with their
 * apps) they lose, those they created included, and lets the admin keep
 * some for them as a guest.
 */
export function RemoveMemberDialog({ slug, handle, rooms }: { slug: string; handle: string; rooms: MemberRoom[] }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  const [open, setOpen] = useState(false);
  const [kept, setKept] = useState<string[]>([]);
  const toggle = (id: string, keep: boolean) => setKept((ids) => (keep ? [...ids, id] : ids.filter((x) => x !== id)));
  const remove = () =>
    run(
      () => web.call(workspacesApi.removeMember, { params: { slug, handle }, body: kept.length ? { keepAsGuest: kept } : {} }),
      () => {
        setOpen(false);
        toast({ message: kept.length ? `Removed @${handle}; they keep ${kept.length} as a guest.` : `Removed @${handle}.` });
        router.refresh();
      },
    );
  return (
    <div>
      <Button
        variant="danger"
        size="sm"
        aria-label={`Remove @${handle}`}
        onClick={() => {
          setKept([]);
          setOpen(true);
        }}
      >
        Remove
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Remove @${handle} from ${slug}?`}
        description={
          rooms.length
            ? `They lose everything in ${slug}, including these, which stay with its owners and admins. Tick any they should keep as a guest (at most as an editor).`
            : `They lose everything in ${slug}.`
        }
      >
        {rooms.length ? (
          <fieldset className="mb-4 max-h-64 overflow-y-auto">
            <legend className="sr-only">Keep as a guest</legend>
            <ul className="grid gap-2 text-sm">
              {rooms.map((room) => (
                <li key={room.id}>
                  <label className="flex items-start gap-2">
                    <input type="checkbox" className="mt-0.5 size-4 accent-brand" checked={kept.includes(room.id)} onChange={(event) => toggle(room.id, event.target.checked)} />
                    <span>
                      <span className="font-medium">{room.name}</span>{' '}
                      <span className="text-muted">
                        ({KIND_NOUN[room.kind]}, {room.role}
                        {room.apps.length ? `; app${room.apps.length > 1 ? 's' : ''} ${room.apps.map((a) => a.name).join(', ')}` : ''})
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void remove()}>
            {busy ? 'Removing…' : kept.length ? `Remove, keep ${kept.length} as a guest` : 'Remove'}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

export function InviteByHandleForm({ slug, roles }: { slug: string; roles: Role[] }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const handle = String(data.get('handle')).trim().replace(/^@/, '');
    const role = String(data.get('role')) as Role;
    run(
      () => web.call(workspacesApi.invite, { params: { slug }, body: { handle, role } }),
      () => {
        form.reset();
        toast({ message: `Invited @${handle} as ${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role}: they accept it from their inbox or dashboard.` });
        router.refresh();
      },
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <Field label="Handle" name="handle" required placeholder="their-handle" autoComplete="off" />
      <ChoiceField label="Role" name="role" choices={roles} defaultValue="member" />
      <FormFooter busy={busy} label="Invite" busyLabel="Inviting…" error={error} columns={3} />
    </form>
  );
}
