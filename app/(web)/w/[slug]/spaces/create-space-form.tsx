'use client';

import type { FormEvent } from 'react';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { Field } from '@/components/ui/field.tsx';
import { FormFooter } from '@/components/ui/form-footer.tsx';
import { web } from '@/lib/web/api-client.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function CreateSpaceForm({ workspace }: { workspace: string }) {
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(
      () => web.call(spacesApi.create, { body: { workspace, name: String(data.get('name')), visibility: String(data.get('visibility')) as 'public' | 'members' } }),
      (space) => window.location.assign(space.path),
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
      <Field label="Name" name="name" required maxLength={255} autoComplete="off" />
      <ChoiceField label="Visibility" name="visibility" choices={['public', 'members']} defaultValue="public" />
      <FormFooter busy={busy} label="Create space" busyLabel="Creating…" error={error} columns={3} />
    </form>
  );
}
