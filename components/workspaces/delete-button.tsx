'use client';

import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Asks `question`, then sends DELETE `path`; the page refreshes, or `then` runs, when it succeeds. */
export function DeleteButton({ path, label, question, then }: { path: string; label: string; question: string; then?: () => void }) {
  const { busy, error, run } = useAction();
  return (
    <div>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={() => {
          if (window.confirm(question)) run(() => api('DELETE', path), then);
        }}
      >
        {label}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
