import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState, ErrorNote } from '@/components/ui/card.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { rolesThatCan, workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { auditLog } from '@/lib/audit/log.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { Time } from '@/components/ui/time.tsx';
import { auditSentence } from '@/lib/web/audit-text.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';

export const metadata: Metadata = { title: 'Audit log' };
export const dynamic = 'force-dynamic';

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const before = Number((await searchParams).before);
  const caller = await requirePageCaller(`/w/${slug}/audit`);
  const { actor } = caller;
  const [workspace, workspaces] = await Promise.all([orNotFound(getWorkspace(caller, slug)), listWorkspaces(caller)]);
  if (!workspaceRoleCan(workspace.role, 'admin')) {
    return (
      <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="audit">
        <ErrorNote>The audit log is open to the {rolesThatCan('admin')} of this workspace.</ErrorNote>
      </WorkspaceFrame>
    );
  }
  const page = await auditLog(caller, slug, Number.isSafeInteger(before) && before > 0 ? { before } : {});
  return (
    <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="audit">
      <Card title="Audit log" label="Audit log">
        {page.events.length === 0 ? (
          <EmptyState>Nothing has happened here yet: invitations, role changes and deletions will show up here.</EmptyState>
        ) : (
          <ol aria-label="Audit events" className="divide-y divide-slate-100 dark:divide-slate-800">
            {page.events.map((event) => (
              <li key={event.id} className="py-3">
                <p className="text-sm">{auditSentence(event)}</p>
                <p className="text-xs text-muted">
                  <Time ms={event.createdAt} />
                </p>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4 flex gap-3">
          {before ? (
            <ButtonLink variant="secondary" href={`/w/${workspace.slug}/audit`}>
              Newest
            </ButtonLink>
          ) : null}
          {page.next !== null ? (
            <ButtonLink variant="secondary" href={`/w/${workspace.slug}/audit?before=${page.next}`}>
              Older events
            </ButtonLink>
          ) : null}
        </div>
      </Card>
    </WorkspaceFrame>
  );
}
