'use client';

import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { api } from '@/lib/web/api-client.ts';
import { Button } from './button.tsx';
import { ErrorNote } from './card.tsx';

/**
 * A button that makes one /v1 call, then refreshes the page (or goes to
 * `goTo`); a failure is shown beside it.
 */
export function ActionButton({
  method,
  path,
  body,
  goTo,
  variant = 'secondary',
  disabled,
  children,
}: {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  goTo?: string;
  variant?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
  children: ReactNode;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      await api(method, path, body);
      if (goTo) window.location.assign(goTo);
      else {
        router.refresh();
        setBusy(false);
      }
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-col gap-1">
      <Button type="button" variant={variant} onClick={run} disabled={busy || disabled}>
        {children}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}
