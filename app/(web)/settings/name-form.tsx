'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

/** The display name, shown beside the handle; empty clears it. */
export function NameForm({ current }: { current: string | null }) {
  const router = useRouter();
  const [name, setName] = useState(current ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await web.call(accountsApi.profile, { body: { name: name.trim() || null } });
      setSaved(true);
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
    setSaving(false);
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
      {saved ? <p role="status" className="text-sm text-green-800">Saved.</p> : null}
      <Button type="submit" disabled={saving || name.trim() === (current ?? '')}>
        {saving ? 'Saving…' : 'Save name'}
      </Button>
    </form>
  );
}
