import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Card } from '@/components/ui/card.tsx';
import { CopyField } from '@/components/ui/copy-button.tsx';
import { DeleteWorkspaceZone } from '@/components/workspaces/delete-workspace-zone.tsx';
import { WorkspaceForm } from '@/components/workspaces/workspace-form.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { getWorkspace } from '@/lib/workspaces/workspaces.ts';
import { db } from '@/lib/db/client.ts';

export const metadata: Metadata = { title: 'Workspace settings' };
export const dynamic = 'force-dynamic';

export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/settings`);
  const workspace = await orNotFound(getWorkspace(caller, slug));
  if (!workspaceRoleCan(workspace.role, 'admin')) notFound();
  const { personal } = await db.workspace.findUniqueOrThrow({ where: { id: workspace.id }, select: { personal: true } });
  return (
    <WorkspaceFrame actor={caller.actor} workspace={workspace} title="Settings">
      <Card title="Workspace details">
        <WorkspaceForm workspace={workspace} />
      </Card>
      <Card title="Identifiers">
        <p className="mb-1 text-sm font-medium">Workspace id</p>
        <CopyField value={workspace.id} label="the workspace id" />
      </Card>
      <DeleteWorkspaceZone slug={workspace.slug} name={workspace.name} personal={personal} />
    </WorkspaceFrame>
  );
}
