'use client';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Unblocks at once (nothing is lost), with an undo in the toast. */
export function UnblockButton({ userId, handle }: { userId: string; handle: string }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  return (
    <div>
      <Button
        variant="secondary"
        size="sm"
        disabled={busy}
        onClick={() =>
          run(
            () => api('DELETE', `/v1/me/blocks/${userId}`),
            () => {
              router.refresh();
              toast({
                message: `Unblocked @${handle}.`,
                action: {
                  label: 'Undo',
                  run: async () => {
                    await api('POST', '/v1/me/blocks', { userId });
                    router.refresh();
                  },
                },
              });
            },
          )
        }
      >
        Unblock
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
