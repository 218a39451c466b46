'use client';

import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';

/** Sign-in by e-mail link: next-auth sends the link and shows the check-email page. */
export function EmailSignInForm({ next }: { next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const email = String(new FormData(event.currentTarget).get('email'));
    try {
      await signIn('email', { email, redirectTo: next });
    } catch {
      setError('The sign-in link could not be sent; try again.');
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="E-mail address" name="email" type="email" required autoComplete="email" hint="We send you a link that signs you in." />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'E-mail me a sign-in link'}
      </Button>
    </form>
  );
}

export function OAuthButton({ provider, label, next }: { provider: 'github' | 'google'; label: string; next: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="button"
      variant="secondary"
      className="w-full"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signIn(provider, { redirectTo: next });
      }}
    >
      Continue with {label}
    </Button>
  );
}
