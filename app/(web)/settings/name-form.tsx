'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

/** The display name, shown beside the handle; empty clears it. */
export function NameForm({ current }: { current: string | null }) {
  const { busy: saving, error, run } = useAction();
  const [name, setName] = useState(current ?? '');
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await web.call(accountsApi.profile, { body: { name: name.trim() || null } });
      setSaved(true);
    });
  }

  return (
    <form onSubmit={submit} className="max-w-sm space-y-4">
      <Field
        label="Display name"
        name="name"
        value={name}
        maxLength={100}
        onChange={(event) => {
          setName(event.target.value);
          setSaved(false);
        }}
        autoComplete="name"
        hint="Shown beside your handle on comments, member lists and your profile. Leave it empty to show only your handle."
      />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {saved ? <p role="status" className="text-sm text-success">Saved.</p> : null}
      <Button type="submit" disabled={saving || name.trim() === (current ?? '')}>
        {saving ? 'Saving…' : 'Save name'}
      </Button>
    </form>
  );
}
