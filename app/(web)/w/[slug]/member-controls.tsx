'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { control, Field } from '@/components/ui/field.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';

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

/** Removes a member, cancels an invitation, or (for oneself) leaves the workspace. */
export function RemoveMemberButton({ slug, handle, kind }: { slug: string; handle: string; kind: 'remove' | 'leave' | 'cancel' }) {
  const router = useRouter();
  const question = {
    remove: `Remove @${handle} from ${slug}?`,
    leave: `Leave ${slug}? You will need a new invitation to come back.`,
    cancel: `Cancel the invitation of @${handle}?`,
  }[kind];
  return (
    <DeleteButton
      path={memberPath(slug, handle)}
      label={{ remove: 'Remove', leave: 'Leave workspace', cancel: 'Cancel invitation' }[kind]}
      question={question}
      then={kind === 'leave' ? () => router.push('/') : undefined}
      done={{ remove: `Removed @${handle}.`, leave: `You left ${slug}.`, cancel: `Cancelled the invitation of @${handle}.` }[kind]}
    />
  );
}

export function InviteByHandleForm({ slug, roles }: { slug: string; roles: Role[] }) {
  const router = useRouter();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    run(
      () => web.call(workspacesApi.invite, { params: { slug }, body: { handle: String(data.get('handle')).trim().replace(/^@/, ''), role: String(data.get('role')) as Role } }),
      () => {
        form.reset();
        router.refresh();
      },
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <Field label="Handle" name="handle" required placeholder="their-handle" autoComplete="off" />
      <ChoiceField label="Role" name="role" choices={roles} defaultValue="member" />
      <Button type="submit" disabled={busy}>
        {busy ? 'Inviting…' : 'Invite'}
      </Button>
      {error ? (
        <div className="sm:col-span-3">
          <ErrorNote>{error}</ErrorNote>
        </div>
      ) : null}
    </form>
  );
}
