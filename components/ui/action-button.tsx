'use client';

import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { api } from '@/lib/web/api-client.ts';
import { Button, type ButtonSize } from './button.tsx';
import { ErrorNote } from './card.tsx';
import { useConfirm, type ConfirmOptions } from './dialog.tsx';
import { useToast } from './toast.tsx';

/**
 * A button that makes one /v1 call, then refreshes the page (or goes to
 * `goTo`). With `confirm`, it asks first in the confirm dialog. With `done`, a
 * toast says what happened, and a failure is a toast too; without, a failure
 * is shown beside the button.
 */
export function ActionButton({
  method,
  path,
  body,
  goTo,
  variant = 'secondary',
  size = 'md',
  disabled,
  confirm,
  done,
  label,
  children,
}: {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  goTo?: string;
  variant?: 'primary' | 'secondary' | 'danger';
  size?: ButtonSize;
  disabled?: boolean;
  confirm?: ConfirmOptions;
  done?: string;
  label?: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const ask = useConfirm();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    if (confirm && !(await ask(confirm))) return;
    setBusy(true);
    setError(null);
    try {
      await api(method, path, body);
      if (done) toast({ message: done });
      if (goTo) window.location.assign(goTo);
      else {
        router.refresh();
        setBusy(false);
      }
    } catch (failure) {
      if (done) toast({ message: (failure as Error).message, tone: 'error' });
      else setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-col gap-1">
      <Button type="button" variant={variant} size={size} onClick={run} disabled={busy || disabled} aria-label={label}>
        {children}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </span>
  );
}
