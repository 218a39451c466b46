'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Accept or decline a pending invitation to a workspace. */
export function InvitationActions({ slug, name }: { slug: string; name: string }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  const answered = (message: string, then: () => void) => () => {
    toast({ message });
    then();
  };
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy} aria-label={`Accept the invitation to ${name}`} onClick={() => run(() => web.call(workspacesApi.accept, { params: { slug } }), answered(`You joined ${name}.`, () => router.push(`/w/${slug}`)))}>
          Accept
        </Button>
        <Button variant="secondary" disabled={busy} aria-label={`Decline the invitation to ${name}`} onClick={() => run(() => web.call(workspacesApi.decline, { params: { slug } }), answered(`Declined the invitation to ${name}.`, () => router.refresh()))}>
          Decline
        </Button>
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
