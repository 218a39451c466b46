'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Field } from '@/components/ui/field.tsx';
import { authApi } from '@/lib/schemas/auth.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/**
 * Makes an API token (for CI, scripts); its secret is shown this once, with a
 * copy button, and no longer once the token is revoked (`activeIds`: the
 * tokens the page lists).
 */
export function CreateTokenForm({ activeIds }: { activeIds: string[] }) {
  const router = useRouter();
  const { busy, error, run } = useAction();
  const [created, setMade] = useState<{ token: string; id: string; label: string } | null>(null);
  const made = created && activeIds.includes(created.id) ? created : null;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const label = String(new FormData(form).get('label'));
    void run(
      () => web.call(authApi.createToken, { body: { label } }),
      (result) => {
        setMade({ token: result.token, id: result.id, label: result.label });
        form.reset();
        router.refresh();
      },
    );
  }
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <Field label="Token name" name="label" required maxLength={100} placeholder="CI deploys" hint="Say where it will be used, so you know which to revoke later." autoComplete="off" />
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create token'}
        </Button>
      </form>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {made ? (
        <div role="status" aria-label="New API token" className="rounded-md border border-emerald-300 bg-emerald-50 p-4 text-sm dark:border-emerald-800 dark:bg-emerald-950/40">
          <p className="font-medium">Copy the token “{made.label}” now: it is shown only once.</p>
          <div className="mt-2 flex min-w-0 items-center gap-2">
            <code tabIndex={0} aria-label="API token" className="min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded bg-surface px-2 py-1">
              {made.token}
            </code>
            <CopyButton value={made.token} label="Copy the token" />
          </div>
          <p className="mt-2 text-muted">
            Use it as <code>ATRIUM_TOKEN</code> in CI, or as <code>Authorization: Bearer …</code> with the API.
          </p>
        </div>
      ) : null}
    </div>
  );
}
