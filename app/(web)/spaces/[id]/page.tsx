import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { Page } from '@/components/page.tsx';
import { FileViewer } from '@/components/spaces/file-viewer.tsx';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { pageCaller } from '@/lib/auth/session.ts';
import { ApiError } from '@/lib/http/errors.ts';
import type { Space } from '@/lib/schemas/spaces.ts';
import type { Caller, SignedInCaller } from '@/lib/access/caller.ts';
import { getSpace } from '@/lib/spaces/spaces.ts';
import { listVersions, readFile, versionDetail } from '@/lib/spaces/publishing.ts';
import { listUploads } from '@/lib/spaces/uploads.ts';
import { visitorStats } from '@/lib/spaces/visitors.ts';
import { formatTime } from '@/lib/web/format.ts';
import { listFolder } from '@/lib/web/file-view.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { SpaceSettingsForm, UploadForm, VisitorsChart } from './space-controls.tsx';

export const metadata: Metadata = { title: 'Space' };
export const dynamic = 'force-dynamic';

type Tab = 'files' | 'history' | 'uploads' | 'visitors' | 'settings';
type Search = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
const versionNumber = (value: string | undefined) => (value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined);
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function href(id: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `/spaces/${id}${text ? `?${text}` : ''}`;
}

export default async function SpacePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const { id } = await params;
  const search = await searchParams;
  const caller = await pageCaller();
  const { actor } = caller;
  let space: Space;
  try {
    space = await getSpace(caller, id);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
    // A members-only space is not found for a signed-out visitor until they sign in.
    if (!actor) redirect(`/signin?next=${encodeURIComponent(`/spaces/${id}`)}`);
    notFound();
  }
  const { permissions } = space;
  const tabs: [Tab, string][] = [
    ['files', 'Files'],
    ['history', 'History'],
    ['uploads', 'Uploads'],
    ...(permissions.push ? ([['visitors', 'Visitors']] as [Tab, string][]) : []),
    ...(permissions.manage ? ([['settings', 'Settings']] as [Tab, string][]) : []),
  ];
  const asked = one(search.tab) as Tab | undefined;
  const tab = tabs.some(([key]) => key === asked) ? asked! : 'files';

  return (
    <Page actor={actor}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{space.name}</h1>
          <p className="text-sm text-slate-500">
            {space.workspace.name} · {space.visibility === 'public' ? 'public' : 'members only'}
            {space.passwordProtected ? ' · password protected' : ''} · {space.latestVersion ? `version ${space.latestVersion}` : 'nothing published yet'}
          </p>
        </div>
        {space.latestVersion ? (
          <a href={space.url} className="text-sm text-brand underline">
            Open the published site
          </a>
        ) : null}
      </div>
      <nav aria-label="Space" className="mt-6 flex gap-1 overflow-x-auto border-b border-slate-200 text-sm">
        {tabs.map(([key, label]) => (
          <a
            key={key}
            href={href(id, { tab: key === 'files' ? undefined : key })}
            aria-current={key === tab ? 'page' : undefined}
            className={`whitespace-nowrap border-b-2 px-3 py-2 ${key === tab ? 'border-brand font-medium text-brand' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {label}
          </a>
        ))}
        <a href={`/spaces/${id}/comments${one(search.path) ? `?path=${encodeURIComponent(one(search.path)!)}` : ''}`} className="whitespace-nowrap border-b-2 border-transparent px-3 py-2 text-slate-600 hover:text-slate-900">Comments</a>
        <a href={`/spaces/${id}/database`} className="whitespace-nowrap border-b-2 border-transparent px-3 py-2 text-slate-600 hover:text-slate-900">Database</a>
      </nav>
      <div className="mt-6 space-y-6">
        {tab === 'files' ? <Files space={space} caller={caller} search={search} /> : null}
        {tab === 'history' ? <History space={space} caller={caller} search={search} /> : null}
        {tab === 'uploads' ? <Uploads space={space} caller={caller} /> : null}
        {tab === 'visitors' && actor ? <Visitors space={space} days={Number(one(search.days) ?? 30)} caller={{ ...caller, actor }} /> : null}
        {tab === 'settings' ? <SpaceSettingsForm space={space} /> : null}
      </div>
    </Page>
  );
}

async function Files({ space, caller, search }: { space: Space; caller: Caller; search: Search }) {
  if (!space.latestVersion) {
    return <EmptyState>Nothing is published yet. Publish a folder with `atrium push`.</EmptyState>;
  }
  const v = versionNumber(one(search.v)) ?? space.latestVersion;
  const [detail, versions] = await Promise.all([orNotFound(versionDetail(caller, space.id, v)), listVersions(caller, space.id)]);
  const path = one(search.path);
  const dir = one(search.dir) ?? (path?.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const folder = listFolder(detail.files, dir);
  // A file the chosen version lacks is said so beside the tree, not a missing page.
  const file = path ? await readFile(caller, space.id, path.split('/'), v).catch((error) => {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }) : null;
  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';

  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
      <div className="space-y-3">
        <form action={`/spaces/${space.id}`} className="flex flex-wrap items-center gap-2 text-sm">
          {path ? <input type="hidden" name="path" value={path} /> : <input type="hidden" name="dir" value={dir} />}
          <label htmlFor="version-picker">Version</label>
          <select id="version-picker" name="v" defaultValue={v} className="min-w-0 max-w-full rounded-md border border-slate-300 px-2 py-1">
            {versions.map((version) => (
              <option key={version.number} value={version.number}>
                {version.number} · {formatTime(version.createdAt)}
              </option>
            ))}
          </select>
          <button type="submit" className="rounded-md border border-slate-300 px-2 py-1">
            Show
          </button>
        </form>
        <nav aria-label="Files" className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="mb-2 font-mono text-slate-500 break-all">/{dir}</p>
          <ul className="space-y-1">
            {dir ? (
              <li>
                <a href={href(space.id, { v, dir: parent })} className="text-brand">
                  ../
                </a>
              </li>
            ) : null}
            {folder.folders.map((name) => (
              <li key={name}>
                <a href={href(space.id, { v, dir: dir ? `${dir}/${name}` : name })} className="text-brand">
                  {name}/
                </a>
              </li>
            ))}
            {folder.files.map((f) => (
              <li key={f.path}>
                <a href={href(space.id, { v, path: f.path })} aria-current={f.path === path ? 'page' : undefined} className={f.path === path ? 'font-semibold' : 'text-brand'}>
                  {f.path.slice(f.path.lastIndexOf('/') + 1)}
                </a>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-xs text-slate-500">
            {detail.version.fileCount.toLocaleString('en')} files in version {detail.version.number}
          </p>
        </nav>
      </div>
      {file ? (
        <FileViewer
          path={file.file.path}
          contentType={file.file.contentType}
          size={file.file.size}
          text={file.file.text}
          truncated={file.file.truncated}
          content={file.content}
          rawUrl={file.rawUrl}
          downloadUrl={`/v1/spaces/${space.id}/download/${encodePath(file.file.path)}?v=${file.versionNumber}`}
        />
      ) : (
        <EmptyState>{path ? `${path} is not in version ${v}.` : 'Choose a file to see it.'}</EmptyState>
      )}
    </div>
  );
}

async function History({ space, caller, search }: { space: Space; caller: Caller; search: Search }) {
  const versions = await listVersions(caller, space.id);
  if (!versions.length) return <EmptyState>No versions yet.</EmptyState>;
  const v = versionNumber(one(search.v)) ?? versions[0].number;
  const detail = await orNotFound(versionDetail(caller, space.id, v));
  const changes: [string, string[], string][] = [
    ['Added', detail.diff.added, 'text-emerald-700'],
    ['Changed', detail.diff.changed, 'text-amber-700'],
    ['Removed', detail.diff.removed, 'text-red-700'],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_1fr]">
      <Card title="Versions">
        <Table headers={['Version', 'When', 'By', 'Files', 'Message']} label="Versions">
          {versions.map((version) => (
            <tr key={version.number} aria-current={version.number === v ? 'true' : undefined} className={version.number === v ? 'bg-brand-soft' : undefined}>
              <Cell>
                <a href={href(space.id, { tab: 'history', v: version.number })} className="text-brand">
                  {version.number}
                </a>
              </Cell>
              <Cell>{formatTime(version.createdAt)}</Cell>
              <Cell>{version.author ? `@${version.author.handle}` : 'Deleted user'}</Cell>
              <Cell>{version.fileCount.toLocaleString('en')}</Cell>
              <Cell>{version.message ?? ''}</Cell>
            </tr>
          ))}
        </Table>
      </Card>
      <Card title={`Changes in version ${v}`} label="Changes">
        <p className="mb-3 text-sm text-slate-500">{detail.diff.unchanged.toLocaleString('en')} files unchanged.</p>
        {changes.map(([label, paths, color]) =>
          paths.length ? (
            <div key={label} className="mb-3">
              <h3 className={`text-sm font-semibold ${color}`}>
                {label} ({paths.length})
              </h3>
              <ul className="mt-1 space-y-0.5 font-mono text-sm break-all">
                {paths.slice(0, 200).map((p) => (
                  <li key={p}>
                    {label === 'Removed' ? p : <a href={href(space.id, { v, path: p })} className="text-brand">{p}</a>}
                  </li>
                ))}
                {paths.length > 200 ? <li className="text-slate-500">and {paths.length - 200} more</li> : null}
              </ul>
            </div>
          ) : null,
        )}
      </Card>
    </div>
  );
}

async function Uploads({ space, caller }: { space: Space; caller: Caller }) {
  const uploads = await listUploads(caller, space.id);
  return (
    <Card title="Uploads" label="Uploads">
      {space.permissions.push ? <UploadForm spaceId={space.id} /> : null}
      {uploads.length ? (
        <Table headers={['Name', 'Size', 'Uploaded', 'By', '']} label="Uploaded files">
          {uploads.map((upload) => (
            <tr key={upload.id}>
              <Cell>
                <a href={`/v1/spaces/${space.id}/uploads/${upload.id}/raw`} className="text-brand break-all">
                  {upload.name}
                </a>
              </Cell>
              <Cell>{upload.size.toLocaleString('en')} bytes</Cell>
              <Cell>{formatTime(upload.createdAt)}</Cell>
              <Cell>{upload.uploadedBy ? `@${upload.uploadedBy.handle}` : 'Deleted user'}</Cell>
              <Cell>
                {space.permissions.push ? (
                  <ActionButton method="DELETE" path={`/v1/spaces/${space.id}/uploads/${upload.id}`}>
                    Delete
                  </ActionButton>
                ) : null}
              </Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <EmptyState>No uploads.</EmptyState>
      )}
    </Card>
  );
}

async function Visitors({ space, days, caller }: { space: Space; days: number; caller: SignedInCaller }) {
  const span = [7, 30, 90].includes(days) ? days : 30;
  const stats = await visitorStats(caller, space.id, span);
  const top = (title: string, rows: { label: string; views: number }[]) => (
    <Card title={title}>
      {rows.length ? (
        <Table headers={['', 'Views']} label={title}>
          {rows.map((row) => (
            <tr key={row.label}>
              <Cell>{row.label}</Cell>
              <Cell>{row.views}</Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <EmptyState>None yet.</EmptyState>
      )}
    </Card>
  );
  return (
    <>
      <div className="flex flex-wrap items-center gap-4 text-sm">
        {[7, 30, 90].map((d) => (
          <a key={d} href={href(space.id, { tab: 'visitors', days: d })} aria-current={d === span ? 'page' : undefined} className={d === span ? 'font-semibold' : 'text-brand'}>
            {d} days
          </a>
        ))}
        <span className="text-slate-600">
          {stats.views} views · {stats.visitors} visitors · {stats.signedIn} signed in
        </span>
      </div>
      <Card title="Daily views and visitors">
        <VisitorsChart daily={stats.daily} />
      </Card>
      <div className="grid gap-6 md:grid-cols-3">
        {top('Pages', stats.pages)}
        {top('Referrers', stats.referrers)}
        {top('Countries', stats.countries)}
      </div>
      <Card title="Signed-in people">
        {stats.people.length ? (
          <Table headers={['Person', 'Views', 'Last seen']} label="Signed-in people">
            {stats.people.map((person) => (
              <tr key={person.user.id}>
                <Cell>@{person.user.handle}</Cell>
                <Cell>{person.views}</Cell>
                <Cell>{formatTime(person.lastSeenAt)}</Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No signed-in visitors yet.</EmptyState>
        )}
      </Card>
      <Card title="Recent views">
        {stats.recent.length ? (
          <Table headers={['When', 'Page', 'Who', 'From']} label="Recent views">
            {stats.recent.map((view, i) => (
              <tr key={i}>
                <Cell>{formatTime(view.at)}</Cell>
                <Cell>{view.path}</Cell>
                <Cell>{view.user ? `@${view.user.handle}` : 'Visitor'}</Cell>
                <Cell>{[view.country, view.referrer].filter(Boolean).join(' · ')}</Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState>No views yet.</EmptyState>
        )}
      </Card>
    </>
  );
}
