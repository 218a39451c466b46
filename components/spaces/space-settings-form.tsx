'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Card, ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { CheckboxField, Field, SelectField } from '@/components/ui/field.tsx';
import { toastAfterReload, useToast } from '@/components/ui/toast.tsx';
import type { Space } from '@/lib/schemas/spaces.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Name, visibility, password, guest rights and viewers of a space (for its admins). */
export function SpaceSettingsForm({ space }: { space: Space }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get('password') ?? '');
    const body = {
      name: String(data.get('name')),
      visibility: String(data.get('visibility')) as 'public' | 'members',
      guestComments: data.get('guestComments') === 'on',
      guestWrites: data.get('guestWrites') === 'on',
      viewers: { handles: String(data.get('viewers') ?? '').split(/[\s,]+/).map((h) => h.replace(/^@/, '')).filter(Boolean) },
      ...(data.get('removePassword') === 'on' ? { password: null } : password ? { password } : {}),
    };
    void run(
      () => web.call(spacesApi.patch, { params: { id: space.id }, body }),
      () => {
        toast({ message: 'Settings saved.' });
        (form.elements.namedItem('password') as HTMLInputElement).value = '';
        router.refresh();
      },
    );
  }

  return (
    <Card title="Settings" label="Settings">
      <form onSubmit={submit} className="max-w-lg space-y-4">
        <Field label="Name" name="name" required maxLength={255} defaultValue={space.name} />
        <SelectField label="Visibility" name="visibility" defaultValue={space.visibility} hint="Who may open the published site and this page.">
          <option value="public">Public: anyone with the address</option>
          <option value="members">Members only: the workspace and listed viewers</option>
        </SelectField>
        <Field
          label={space.passwordProtected ? 'New password' : 'Password'}
          name="password"
          type="password"
          autoComplete="new-password"
          hint="Visitors of a public space who are not members must enter it."
        />
        {space.passwordProtected ? <CheckboxField name="removePassword" label="Remove the password" /> : null}
        <CheckboxField name="guestComments" defaultChecked={space.guestComments} label="Guests may comment" />
        <CheckboxField name="guestWrites" defaultChecked={space.guestWrites} label="Guests may run the database's named writes" />
        <Field
          label="Viewers"
          name="viewers"
          defaultValue={space.viewers.users.map((u) => `@${u.handle}`).join(' ')}
          hint="Handles of people outside the workspace who may view a members-only space, separated by spaces."
        />
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </Button>
      </form>
    </Card>
  );
}

/** Deleting the space, behind a confirmation that asks for its name. */
export function DeleteSpaceZone({ space }: { space: Space }) {
  const confirm = useConfirm();
  const { busy, error, run } = useAction();
  async function remove() {
    const yes = await confirm({
      title: `Delete ${space.name}?`,
      description: `Every version, upload and visitor statistic of ${space.name} is deleted, and its site stops being served. This cannot be undone.`,
      confirmLabel: 'Delete this space',
      danger: true,
    });
    if (!yes) return;
    await run(
      () => web.call(spacesApi.remove, { params: { id: space.id } }),
      () => {
        toastAfterReload(`Deleted the space ${space.name}.`);
        window.location.assign(`/w/${space.workspace.slug}/spaces`);
      },
    );
  }
  return (
    <section aria-label="Danger zone" className="rounded-lg border border-red-300 p-5 dark:border-red-900">
      <h2 className="font-semibold text-danger">Danger zone</h2>
      <p className="mt-1 text-sm text-muted">Delete this space with all of its versions, uploads and statistics.</p>
      <div className="mt-3">
        <Button variant="danger" onClick={remove} disabled={busy}>
          {busy ? 'Deleting…' : 'Delete this space'}
        </Button>
        {error ? <ErrorNote>{error}</ErrorNote> : null}
      </div>
    </section>
  );
}
