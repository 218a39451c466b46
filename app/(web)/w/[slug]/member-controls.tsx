'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

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
        onChange={(event) => run(() => api('PATCH', memberPath(slug, handle), { role: event.target.value }))}
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
  const { busy, error, run } = useAction();
  const label = { remove: 'Remove', leave: 'Leave workspace', cancel: 'Cancel invitation' }[kind];
  const question = {
    remove: `Remove @${handle} from ${slug}?`,
    leave: `Leave ${slug}? You will need a new invitation to come back.`,
    cancel: `Cancel the invitation of @${handle}?`,
  }[kind];
  return (
    <div>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={() => {
          if (window.confirm(question)) {
            run(() => api('DELETE', memberPath(slug, handle)), kind === 'leave' ? () => router.push('/') : undefined);
          }
        }}
      >
        {label}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
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
      () => api('POST', `/v1/workspaces/${slug}/members`, { handle: String(data.get('handle')).trim().replace(/^@/, ''), role: data.get('role') }),
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

export function WorkspaceDetailsForm({ slug, name }: { slug: string; name: string }) {
  const router = useRouter();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    run(
      () => api<{ slug: string }>('PATCH', `/v1/workspaces/${slug}`, { name: data.get('name'), slug: data.get('slug') }),
      (updated) => (updated.slug === slug ? router.refresh() : router.push(`/w/${updated.slug}`)),
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
      <Field label="Name" name="name" required maxLength={100} defaultValue={name} />
      <Field label="Slug" name="slug" required maxLength={39} defaultValue={slug} pattern="[a-z0-9](?:[a-z0-9\-]{0,37}[a-z0-9])?" />
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </Button>
      {error ? (
        <div className="sm:col-span-3">
          <ErrorNote>{error}</ErrorNote>
        </div>
      ) : null}
    </form>
  );
}
