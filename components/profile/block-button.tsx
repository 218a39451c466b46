'use client';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Block or unblock from a profile: at once (either is undone as easily), with a toast. */
export function BlockButton({ userId, handle, blocked }: { userId: string; handle: string; blocked: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  return (
    <div>
      {blocked ? <p className="mb-2 text-sm text-muted">You blocked @{handle}: their comments are shown collapsed and their room chat does not reach you.</p> : null}
      <Button
        variant={blocked ? 'secondary' : 'danger'}
        disabled={busy}
        onClick={() =>
          run(
            () => (blocked ? api('DELETE', `/v1/me/blocks/${userId}`) : api('POST', '/v1/me/blocks', { userId })),
            () => {
              router.refresh();
              toast({ message: blocked ? `Unblocked @${handle}.` : `Blocked @${handle}.` });
            },
          )
        }
      >
        {blocked ? `Unblock @${handle}` : `Block @${handle}`}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
