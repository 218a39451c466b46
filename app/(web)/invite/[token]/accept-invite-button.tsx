'use client';

import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import type { InviteAcceptResult } from '@/lib/schemas/workspaces.ts';
import { api } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function AcceptInviteButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  const { busy, error, run } = useAction();
  return (
    <div className="space-y-3">
      <Button
        disabled={busy}
        onClick={() =>
          run(
            () => api<InviteAcceptResult>('POST', '/v1/workspace-invites/accept', { token }),
            (result) => window.location.assign(`/w/${result.workspace.slug}`),
          )
        }
      >
        {busy ? 'Joining…' : `Join ${workspaceName}`}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
