'use client';

import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function AcceptInviteButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  const { busy, error, run } = useAction();
  return (
    <div className="space-y-3">
      <Button
        disabled={busy}
        onClick={() =>
          run(
            () => web.call(workspacesApi.acceptInvite, { body: { token } }),
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
