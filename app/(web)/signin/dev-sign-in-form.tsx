'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

// Development sign-in: a handle is enough. Only shown when DEV_AUTH=true.
export function DevSignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const handle = String(new FormData(event.currentTarget).get('handle'));
    try {
      await web.call(accountsApi.devLogin, { body: { handle, label: 'web' } });
      window.location.assign(next);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="mt-6 space-y-4">
      <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
        Development sign-in is on: anyone can sign in as any handle.
      </p>
      <Field label="Handle" name="handle" required pattern="[a-z0-9](?:[a-z0-9\-]{0,37}[a-z0-9])?" autoComplete="username" />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
