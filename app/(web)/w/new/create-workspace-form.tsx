'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import type { WorkspaceSummary } from '@/lib/schemas/workspaces.ts';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function CreateWorkspaceForm() {
  const router = useRouter();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    run(
      () => api<WorkspaceSummary>('POST', '/v1/workspaces', { name: data.get('name'), slug: data.get('slug') }),
      (workspace) => router.push(`/w/${workspace.slug}`),
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Name" name="name" required maxLength={100} autoComplete="off" />
      <Field
        label="Slug"
        name="slug"
        required
        maxLength={39}
        pattern="[a-z0-9](?:[a-z0-9\-]{0,37}[a-z0-9])?"
        autoComplete="off"
        hint="Lowercase letters, digits and hyphens; it names the workspace in addresses and shares one namespace with handles."
      />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create workspace'}
      </Button>
    </form>
  );
}
