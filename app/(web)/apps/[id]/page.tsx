import type { Metadata } from 'next';
import { AccessForm, AppActions, DeleteAppButton, GoLiveForm, OwnerLinkButton, RollbackButton } from '@/components/apps/app-controls.tsx';
import { BuildAppButton } from '@/components/apps/build-app-button.tsx';
import { DeployChanges } from '@/components/apps/deploy-changes.tsx';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { getApp, listDeploys, listEndUsers } from '@/lib/apps/apps.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { roomPages } from '@/lib/rooms/rooms.ts';
import { formatTime } from '@/lib/web/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';

export const metadata: Metadata = { title: 'App' };
export const dynamic = 'force-dynamic';

export default async function AppPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await requirePageCaller(`/apps/${id}`);
  const app = await orNotFound(getApp(caller, id));
  const [{ deploys }, users, pages] = await Promise.all([
    listDeploys(caller, id),
    app.canManage ? listEndUsers(caller, id).then((r) => r.users) : Promise.resolve(null),
    roomPages(caller, app.room.kind, app.room.id),
  ]);
  const live = app.liveVersion !== null;
  return (
    <Page
      actor={caller.actor}
      workspace={app.room.workspace.slug}
      crumbs={[{ label: app.room.workspace.name, href: `/w/${app.room.workspace.slug}` }, { label: 'Apps', href: `/w/${app.room.workspace.slug}/apps` }, { label: app.name }]}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{app.name}</h1>
          <p className="text-sm text-muted">
            <span data-testid="app-status">{app.status}</span> · built from{' '}
            <a className="text-link underline" href={`/${app.room.kind === 'room' ? 'rooms' : 'live-spaces'}/${app.room.id}`}>
              {app.room.name}
            </a>
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          {app.canEdit ? <BuildAppButton roomId={app.room.id} kind={app.room.kind} appId={app.id} pageId={app.build.pageId} pages={pages} label="Rebuild preview" /> : null}
          {app.canManage ? (
            <ButtonLink variant="secondary" href={`/v1/apps/${app.id}/export`}>
              Export zip
            </ButtonLink>
          ) : null}
        </div>
      </div>
      <div className="mt-6 space-y-6">
        <Card title="Live">
          {live ? (
            <div className="space-y-3 text-sm">
              <p>
                Version {app.liveVersion} at{' '}
                <a className="text-link break-all underline" href={app.liveUrl!} target="_blank" rel="noreferrer" data-testid="live-url">
                  {app.liveUrl}
                </a>
              </p>
              {app.joinCode ? (
                <p>
                  Join code: <code className="rounded bg-slate-100 px-2 py-1 text-base tracking-widest dark:bg-slate-800" data-testid="join-code">{app.joinCode}</code>
                </p>
              ) : null}
              {app.liveDataSpaceId ? <p><a className="text-link" href={`/spaces/${app.liveDataSpaceId}/database`} data-testid="live-data">Live data (database)</a></p> : null}
              {app.canManage ? (
                <>
                  <AppActions app={app} />
                  <AccessForm app={app} />
                </>
              ) : null}
              {app.canEdit ? <OwnerLinkButton appId={app.id} /> : null}
            </div>
          ) : app.canManage ? (
            <GoLiveForm app={app} />
          ) : (
            <EmptyState>Not live yet.</EmptyState>
          )}
        </Card>
        <Card title={`Preview (version ${app.previewVersion})`}>
          <p className="mb-2 text-sm text-muted">
            Last build: {app.build.status} {app.build.finishedAt ? formatTime(app.build.finishedAt) : ''}
            {app.build.error ? ` — ${app.build.error}` : ''}
          </p>
          {app.previewVersion ? (
            // The preview keeps its own origin (the app space's host, never the app's), so its styles, scripts and cookie work;
            // without a content domain the served page sandboxes itself (lib/spaces/content.ts).
            <iframe title="Preview" src={app.previewUrl} className="h-[32rem] w-full rounded border border-line" sandbox="allow-scripts allow-forms allow-same-origin" />
          ) : (
            <EmptyState>No preview yet: the first build failed.</EmptyState>
          )}
          {app.build.log?.length ? (
            <details className="mt-2 text-xs text-muted">
              <summary>Build log</summary>
              <pre className="whitespace-pre-wrap">{app.build.log.join('\n')}</pre>
            </details>
          ) : null}
        </Card>
        <Card title="Deploys">
          <p className="mb-2 text-sm text-muted">Newest first; each with the files it changed against the deploy before.</p>
          {deploys.length ? (
            // A list rather than a table: on a phone each deploy stays one block, its rollback in reach.
            <ol aria-label="Deploys" className="divide-y divide-slate-100 dark:divide-slate-800">
              {deploys.map((d) => (
                <li key={d.deploy} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 py-3 text-sm">
                  <div className="min-w-0 space-y-1">
                    <p>
                      <span className="font-medium">
                        Deploy {d.deploy} · {d.kind} · v{d.version}
                      </span>
                      {d.current ? <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">live</span> : null}
                    </p>
                    <p className="text-xs text-muted">
                      {d.actor ? `@${d.actor.handle} · ` : ''}
                      {formatTime(d.createdAt)}
                    </p>
                    <DeployChanges changes={d.changes} />
                  </div>
                  {app.canManage && d.version !== app.liveVersion ? <RollbackButton app={app} deploy={d} /> : null}
                </li>
              ))}
            </ol>
          ) : (
            <EmptyState>Not live yet.</EmptyState>
          )}
        </Card>
        {users ? (
          <Card title={`End users (${users.length})`}>
            {users.length ? (
              <Table headers={['Who', 'Via', 'First seen', 'Last seen']} label="End users">
                {users.map((u) => (
                  <tr key={u.id}>
                    <Cell>{u.user ? `@${u.user.handle}` : 'someone with the code'}</Cell>
                    <Cell>{u.via}</Cell>
                    <Cell>{formatTime(u.firstSeenAt)}</Cell>
                    <Cell>{formatTime(u.lastSeenAt)}</Cell>
                  </tr>
                ))}
              </Table>
            ) : (
              <EmptyState>Nobody has opened the live app yet.</EmptyState>
            )}
          </Card>
        ) : null}
        {app.canManage ? <DeleteAppButton app={app} /> : null}
      </div>
    </Page>
  );
}
