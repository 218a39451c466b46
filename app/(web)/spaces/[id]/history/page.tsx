import type { Metadata } from 'next';
import { AliasForm } from '@/components/spaces/alias-form.tsx';
import { RestoreButton } from '@/components/spaces/restore-button.tsx';
import { VersionChanges } from '@/components/spaces/version-changes.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { Time } from '@/components/ui/time.tsx';
import type { Caller } from '@/lib/core/caller.ts';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';
import type { Space } from '@/lib/schemas/spaces.ts';
import { listAliases } from '@/lib/spaces/aliases.ts';
import { fileHistory, listVersions, versionDetail } from '@/lib/spaces/publishing.ts';
import { formatBytes } from '@/lib/format.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { one, spaceHref, versionNumber, type SearchParams } from '@/lib/web/space-page.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'History' };
export const dynamic = 'force-dynamic';

const person = (p: { handle: string } | null) => (p ? `@${p.handle}` : 'a deleted user');

export default async function HistoryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const search = await searchParams;
  const { caller, space } = await spacePage(id);
  const file = one(search.file);
  if (file) return <FileHistory space={space} caller={caller} path={file} />;
  const [versions, aliases] = await Promise.all([listVersions(caller, space.id), listAliases(caller, space.id)]);
  if (!versions.length) return <EmptyState title="No versions yet">Each push makes a version; they are all kept here.</EmptyState>;
  const v = versionNumber(one(search.v)) ?? versions[0].number;
  const detail = await orNotFound(versionDetail(caller, space.id, v));
  const siteAt = (n: number) => `${space.url}?v=${n}`;

  const aliasesOf = (n: number) => aliases.filter((a) => a.version === n);
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="min-w-0 space-y-6">
        <Card
          title="Versions"
          actions={
            versions.length > 1 ? (
              <ButtonLink href={spaceHref(space.id, 'history/compare', { base: versions[1].number, head: versions[0].number })} variant="secondary" size="sm">
                Compare versions
              </ButtonLink>
            ) : null
          }
        >
          <Table headers={['Version', 'When', 'By', 'Message']} label="Versions">
            {versions.map((version) => (
              <tr key={version.number} aria-current={version.number === v ? 'true' : undefined} className={version.number === v ? 'bg-brand-soft dark:bg-indigo-950/50' : undefined}>
                <Cell>
                  <a href={spaceHref(space.id, 'history', { v: version.number })} className="font-medium text-link">
                    {version.number}
                  </a>
                </Cell>
                <Cell>
                  <Time ms={version.createdAt} />
                </Cell>
                <Cell>{person(version.author)}</Cell>
                <Cell>
                  {version.message ?? ''}
                  {aliasesOf(version.number).map((a) => (
                    <span key={a.name} className="ml-1 inline-block rounded-full bg-amber-50 px-2 py-0.5 font-mono text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                      {a.name}
                    </span>
                  ))}
                </Cell>
              </tr>
            ))}
          </Table>
        </Card>
        {aliases.length || space.permissions.push ? (
          <Card title="Aliases">
            <p className="text-sm text-muted">
              Named addresses of versions, for previews: each serves its version until it is moved (here, or with <code>atrium push --alias &lt;name&gt;</code>).
            </p>
            {aliases.length ? (
              <ul aria-label="Aliases" className="mt-3 divide-y divide-slate-200 dark:divide-slate-700">
                {aliases.map((a) => (
                  <li key={a.name} className="py-3">
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                      <span className="font-mono font-medium">{a.name}</span>
                      <a href={spaceHref(space.id, 'history', { v: a.version })} className="text-link">
                        version {a.version}
                      </a>
                      <a href={spaceHref(space.id, 'comments', { alias: a.name })} className="text-link" aria-label={`Comments through ${a.name}`}>
                        Comments
                      </a>
                      {space.permissions.push ? (
                        <span className="ml-auto">
                          <DeleteButton path={`/v1/spaces/${space.id}/aliases/${a.name}`} label={`Remove ${a.name}`} question={`Remove the alias ${a.name}?`} description="Its address stops serving at once." done={`${a.name} removed.`} />
                        </span>
                      ) : null}
                    </div>
                    <div className="mt-1 flex items-center gap-2">
                      <a href={a.url} className="min-w-0 text-sm break-all text-link underline">
                        {a.url}
                      </a>
                      <CopyButton value={a.url} label={`Copy the address of ${a.name}`} className="shrink-0" />
                    </div>
                  </li>
                ))}
              </ul>
            ) : null}
            {space.permissions.push ? <AliasForm spaceId={space.id} versions={versions.map((x) => x.number)} version={v} /> : null}
          </Card>
        ) : null}
      </div>
      <Changes space={space} caller={caller} v={v} detail={detail} siteUrl={siteAt(v)} />
    </div>
  );
}

async function Changes({ space, caller, v, detail, siteUrl }: { space: Space; caller: Caller; v: number; detail: Awaited<ReturnType<typeof versionDetail>>; siteUrl: string }) {
  return (
    <Card title={`Changes in version ${v}`} label="Changes">
      <p className="text-sm text-muted">
        <Time ms={detail.version.createdAt} /> by {person(detail.version.author)} · {detail.version.fileCount.toLocaleString('en')} files, {formatBytes(detail.version.bytes)} ·{' '}
        {detail.diff.unchanged.toLocaleString('en')} unchanged
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <ButtonLink href={siteUrl} variant="secondary" size="sm">
          Open version {v}&apos;s site
        </ButtonLink>
        <CopyButton value={siteUrl} label={`Copy the address of version ${v}'s site`} />
        <ButtonLink href={spaceHref(space.id, 'history/compare', { base: Math.max(1, v - 1), head: v })} variant="secondary" size="sm">
          Compare with another version
        </ButtonLink>
        {space.permissions.push && v !== space.latestVersion ? <RestoreButton spaceId={space.id} version={v} latest={space.latestVersion} /> : null}
      </div>
      <VersionChanges space={space} caller={caller} base={v - 1} head={v} diff={detail.diff} />
    </Card>
  );
}

async function FileHistory({ space, caller, path }: { space: Space; caller: Caller; path: string }) {
  const { entries } = await orNotFound(fileHistory(caller, space.id, path.split('/')));
  return (
    <Card title={`History of ${path}`} label="File history" actions={<ButtonLink href={spaceHref(space.id, 'history')} variant="secondary" size="sm">All versions</ButtonLink>}>
      <Table headers={['Version', 'Change', 'When', 'By', 'Size']} label={`Versions of ${path}`}>
        {entries.map((e) => (
          <tr key={e.version}>
            <Cell>
              <a href={spaceHref(space.id, 'history', { v: e.version })} className="font-medium text-link">
                {e.version}
              </a>
            </Cell>
            <Cell>
              {e.change === 'removed' ? (
                'Removed'
              ) : (
                <a href={spaceHref(space.id, '', { v: e.version, path })} className="text-link">
                  {e.change === 'added' ? 'Added' : 'Changed'}
                </a>
              )}
            </Cell>
            <Cell>
              <Time ms={e.createdAt} />
            </Cell>
            <Cell>{person(e.author)}</Cell>
            <Cell>{e.size === null ? '' : formatBytes(e.size)}</Cell>
          </tr>
        ))}
      </Table>
    </Card>
  );
}
