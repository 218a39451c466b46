'use client';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { toastAfterReload } from '@/components/ui/toast.tsx';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Deleting a workspace with everything in it, behind the confirm dialog. */
export function DeleteWorkspaceZone({ slug, name, personal }: { slug: string; name: string; personal: boolean }) {
  const confirm = useConfirm();
  const { busy, error, run } = useAction();
  async function remove() {
    const yes = await confirm({
      title: `Delete ${name}?`,
      description: `Every space of ${name} with all its versions and uploads, its members, invite links and audit log are deleted. This cannot be undone.`,
      confirmLabel: 'Delete this workspace',
      danger: true,
    });
    if (!yes) return;
    await run(
      () => web.call(workspacesApi.remove, { params: { slug } }),
      () => {
        toastAfterReload(`Deleted the workspace ${name}.`);
        window.location.assign('/');
      },
    );
  }
  return (
    <section aria-label="Danger zone" className="rounded-lg border border-red-300 p-5 dark:border-red-900">
      <h2 className="font-semibold text-danger">Danger zone</h2>
      {personal ? (
        <p className="mt-1 text-sm text-muted">
          This is your personal workspace: it is deleted with your account (<a className="underline" href="/settings/delete">Delete account</a>).
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-muted">Delete this workspace with all of its spaces.</p>
          <div className="mt-3">
            <Button variant="danger" onClick={remove} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete this workspace'}
            </Button>
            {error ? <ErrorNote>{error}</ErrorNote> : null}
          </div>
        </>
      )}
    </section>
  );
}
