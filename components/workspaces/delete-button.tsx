'use client';

import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/**
 * Asks `question` in the confirm dialog, then sends DELETE `path`; the page
 * refreshes (or `then` runs) and a toast says `done` when it succeeds.
 */
export function DeleteButton({ path, label, question, then, done, description }: { path: string; label: string; question: string; then?: () => void; done?: string; description?: string }) {
  const { busy, error, run } = useAction();
  const confirm = useConfirm();
  const toast = useToast();
  return (
    <div>
      <Button
        variant="danger"
        size="sm"
        disabled={busy}
        onClick={async () => {
          if (!(await confirm({ title: question, description, confirmLabel: label, danger: true }))) return;
          await run(
            () => api('DELETE', path),
            then
              ? () => {
                  if (done) toast({ message: done });
                  then();
                }
              : undefined,
          );
          if (done && !then) toast({ message: done });
        }}
      >
        {label}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
