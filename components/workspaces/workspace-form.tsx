'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Creates a workspace, or renames `workspace` and changes its slug; then shows it under its (new) address. */
export function WorkspaceForm({ workspace }: { workspace?: { slug: string; name: string } }) {
  const router = useRouter();
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = { name: String(data.get('name')), slug: String(data.get('slug')) };
    run(
      () => (workspace ? web.call(workspacesApi.update, { params: { slug: workspace.slug }, body }) : web.call(workspacesApi.create, { body })),
      (saved) => (saved.slug === workspace?.slug ? router.refresh() : router.push(`/w/${saved.slug}`)),
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Name" name="name" required maxLength={100} defaultValue={workspace?.name} autoComplete="off" />
      <Field
        label="Slug"
        name="slug"
        required
        maxLength={39}
        defaultValue={workspace?.slug}
        pattern="[a-z0-9](?:[a-z0-9\-]{0,37}[a-z0-9])?"
        autoComplete="off"
        hint="Lowercase letters, digits and hyphens; it is the workspace's address and shares one namespace with handles."
      />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving…' : workspace ? 'Save' : 'Create workspace'}
      </Button>
    </form>
  );
}
