'use client';
// "Restore this version": commits that version's files as a new version,
// through the same two calls the CLI would make (read the version, commit its
// file list); the blobs are already held, so nothing is uploaded.
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function RestoreButton({ spaceId, version, latest }: { spaceId: string; version: number; latest: number }) {
  const router = useRouter();
  const confirm = useConfirm();
  const toast = useToast();
  const { busy, error, run } = useAction();
  async function restore() {
    const yes = await confirm({
      title: `Restore version ${version}?`,
      description: `Its files become version ${latest + 1}; every version stays in the history.`,
      confirmLabel: 'Restore',
    });
    if (!yes) return;
    await run(
      async () => {
        const detail = await web.call(spacesApi.version, { params: { id: spaceId, n: String(version) } });
        const files = detail.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size, contentType: f.contentType }));
        return web.call(spacesApi.commit, { params: { id: spaceId }, body: { files, message: `Restore version ${version}` } });
      },
      (result) => {
        toast({ message: result.version ? `Version ${version} restored as version ${result.version.number}.` : `Version ${version} is what is published already.` });
        router.push(`/spaces/${spaceId}/history`);
        router.refresh();
      },
    );
  }
  return (
    <div>
      <Button variant="secondary" onClick={restore} disabled={busy}>
        {busy ? 'Restoring…' : 'Restore this version'}
      </Button>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
