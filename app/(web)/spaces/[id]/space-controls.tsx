'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '@/components/ui/button.tsx';
import { Card, ErrorNote } from '@/components/ui/card.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { Field } from '@/components/ui/field.tsx';
import type { Space } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Name, visibility, password, guest rights and viewers of a space (for its admins). */
export function SpaceSettingsForm({ space }: { space: Space }) {
  const { busy, error, run } = useAction();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const body = {
      name: String(data.get('name')),
      visibility: String(data.get('visibility')) as 'public' | 'members',
      guestComments: data.get('guestComments') === 'on',
      guestWrites: data.get('guestWrites') === 'on',
      viewers: { handles: String(data.get('viewers') ?? '').split(/[\s,]+/).map((h) => h.replace(/^@/, '')).filter(Boolean) },
      ...(data.get('removePassword') === 'on' ? { password: null } : password ? { password } : {}),
    };
    // A full reload shows the saved values in the form's fields.
    void run(() => web.call(spacesApi.patch, { params: { id: space.id }, body }), () => window.location.reload());
  }

  return (
    <Card title="Settings" label="Settings">
      <form onSubmit={submit} className="max-w-lg space-y-4">
        <Field label="Name" name="name" required maxLength={255} defaultValue={space.name} />
        <ChoiceField label="Visibility" name="visibility" choices={['public', 'members']} defaultValue={space.visibility} />
        <Field
          label={space.passwordProtected ? 'New password' : 'Password'}
          name="password"
          type="password"
          autoComplete="new-password"
          hint="Visitors of a public space who are not members must enter it."
        />
        {space.passwordProtected ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="removePassword" /> Remove the password
          </label>
        ) : null}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="guestComments" defaultChecked={space.guestComments} /> Guests may comment
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="guestWrites" defaultChecked={space.guestWrites} /> Guests may run the database's named writes
        </label>
        <Field
          label="Viewers"
          name="viewers"
          defaultValue={space.viewers.users.map((u) => `@${u.handle}`).join(' ')}
          hint="Handles of people outside the workspace who may view a members-only space."
        />
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </Button>
      </form>
    </Card>
  );
}

/** Uploads one file as the raw body, as the API takes it. */
export function UploadForm({ spaceId }: { spaceId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = (new FormData(event.currentTarget).get('file') as File | null) ?? null;
    if (!file || !file.name) return;
    setBusy(true);
    setError(null);
    const response = await fetch(`/v1/spaces/${spaceId}/uploads?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
    setBusy(false);
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      setError(body?.error?.message ?? `The upload failed (${response.status}).`);
      return;
    }
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="mb-4 flex flex-wrap items-center gap-3">
      <input type="file" name="file" aria-label="File to upload" required className="text-sm" />
      <Button type="submit" disabled={busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </form>
  );
}

export function VisitorsChart({ daily }: { daily: { date: string; views: number; visitors: number }[] }) {
  return (
    <div className="h-64 w-full" role="img" aria-label="Daily views and visitors">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={daily}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} width={32} />
          <Tooltip />
          <Legend />
          <Bar dataKey="views" name="Views" fill="#4338ca" />
          <Bar dataKey="visitors" name="Visitors" fill="#a5b4fc" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
