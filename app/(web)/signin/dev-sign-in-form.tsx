'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';

// Development sign-in: a handle is enough. Only shown when DEV_AUTH=true.
export function DevSignInForm() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const handle = String(new FormData(event.currentTarget).get('handle'));
    const response = await fetch('/v1/auth/dev-login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle, label: 'web' }),
    });
    if (response.ok) {
      window.location.assign('/');
      return;
    }
    const body = await response.json().catch(() => null);
    setError(body?.error?.message ?? `Sign-in failed (${response.status}).`);
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="mt-6 space-y-4">
      <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
        Development sign-in is on: anyone can sign in as any handle.
      </p>
      <label className="block text-sm font-medium">
        Handle
        <input
          name="handle"
          required
          pattern="[a-z0-9](?:[a-z0-9\-]{0,37}[a-z0-9])?"
          autoComplete="username"
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
