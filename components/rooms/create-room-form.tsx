'use client';

import type { FormEvent } from 'react';
import { Field, SelectField } from '@/components/ui/field.tsx';
import { FormFooter } from '@/components/ui/form-footer.tsx';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { KIND, type RoomKindName } from './kinds.ts';

const TEMPLATES = ['blank', 'notes', 'brief', 'retro', 'app'] as const;

/** Creates a room or live space in one of the person's workspaces, then opens it. */
export function CreateRoomForm({ kind, workspaces, current }: { kind: RoomKindName; workspaces: { slug: string; name: string }[]; current?: string }) {
  const { busy, error, run } = useAction();
  const { noun, api } = KIND[kind];
  if (workspaces.length === 0) return <p className="text-sm text-muted">Join or create a workspace to create a {noun.toLowerCase()}.</p>;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const prompt = String(form.get('prompt') ?? '').trim();
    run(
      () =>
        web.call(api.create, {
          body: { workspace: String(form.get('workspace')), template: String(form.get('template')), ...(name ? { name } : {}), ...(prompt ? { prompt } : {}) },
        }),
      (room) => window.location.assign(room.path),
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label={`Create a ${noun.toLowerCase()}`}>
      <Field label="Name" name="name" maxLength={100} placeholder="Named after the template or prompt if empty" />
      <SelectField label="Workspace" name="workspace" defaultValue={current ?? workspaces[0].slug}>
        {workspaces.map((w) => (
          <option key={w.slug} value={w.slug}>
            {w.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Template" name="template" defaultValue="blank">
        {TEMPLATES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      <Field label="What is it for? (optional)" name="prompt" maxLength={4000} />
      <FormFooter busy={busy} label={`Create ${noun.toLowerCase()}`} busyLabel="Creating…" error={error} columns={2} />
    </form>
  );
}
