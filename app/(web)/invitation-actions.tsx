'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Accept or decline a pending invitation to a workspace. */
export function InvitationActions({ slug, name }: { slug: string; name: string }) {
  const router = useRouter();
  const { busy, error, run } = useAction();
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy} aria-label={`Accept the invitation to ${name}`} onClick={() => run(() => api('POST', `/v1/workspaces/${slug}/accept`), () => router.push(`/w/${slug}`))}>
          Accept
        </Button>
        <Button variant="secondary" disabled={busy} aria-label={`Decline the invitation to ${name}`} onClick={() => run(() => api('POST', `/v1/workspaces/${slug}/decline`))}>
          Decline
        </Button>
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
