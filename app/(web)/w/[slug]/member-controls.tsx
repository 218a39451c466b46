'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';

type Role = 'owner' | 'admin' | 'member' | 'viewer';

const memberPath = (slug: string, handle: string) => `/v1/workspaces/${slug}/members/${encodeURIComponent(handle)}`;

/** A member's role, as a menu of the roles the viewer may give them. */
export function RoleControl({ slug, handle, role, options }: { slug: string; handle: string; role: Role; options: Role[] }) {
  const { busy, error, run } = useAction();
  if (options.length <= 1) return <span>{role}</span>;
  return (
    <div>
      <select
        aria-label={`Role of @${handle}`}
        className="rounded-md border border-slate-300 bg-white px-2 py-1"
        value={role}
        disabled={busy}
        onChange={(event) => run(() => web.call(workspacesApi.changeRole, { params: { slug, handle }, body: { role: event.target.value as Role } }))}
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
