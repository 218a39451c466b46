import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { WorkspaceForm } from '@/components/workspaces/workspace-form.tsx';
import { requirePageCaller } from '@/server/http/session.ts';

export const metadata: Metadata = { title: 'New workspace' };
export const dynamic = 'force-dynamic';

export default async function NewWorkspacePage() {
  const caller = await requirePageCaller('/w/new');
  const { actor } = caller;
  return (
    <Page actor={actor} title="New workspace" width="max-w-md">
      <p className="mb-6 text-muted">You become its owner, and can invite others once it exists.</p>
      <WorkspaceForm />
    </Page>
  );
}
