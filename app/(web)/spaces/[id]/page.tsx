import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { FileViewer } from '@/components/spaces/file-viewer.tsx';
import { VersionPicker } from '@/components/spaces/version-picker.tsx';
import { EmptyState } from '@/components/ui/card.tsx';
import { ApiError } from '@/lib/http/errors.ts';
import { listVersions, readFile, versionDetail } from '@/lib/spaces/publishing.ts';
import { formatTime } from '@/lib/web/format.ts';
import { listFolder } from '@/lib/web/file-view.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { encodePath, one, spaceHref, spacePage, versionNumber, type SearchParams } from '@/lib/web/space-page.ts';

export const metadata: Metadata = { title: 'Space' };
export const dynamic = 'force-dynamic';

const LEGACY_TABS = ['history', 'uploads', 'visitors', 'settings'];

export default async function FilesPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const search = await searchParams;
  // Old addresses (?tab=history) keep working: the tabs are folders now.
  const tab = one(search.tab);
  if (tab && LEGACY_TABS.includes(tab)) {
    const rest = Object.fromEntries(Object.entries(search).filter(([k, v]) => k !== 'tab' && typeof v === 'string')) as Record<string, string>;
    redirect(spaceHref(id, tab, rest));
  }
  const { caller, space } = await spacePage(id);
  if (!space.latestVersion) {
    return (
      <EmptyState title="Nothing is published yet">
        Publish a folder from your terminal with <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">atrium push</code>.
      </EmptyState>
    );
  }
  const v = versionNumber(one(search.v)) ?? space.latestVersion;
  const [detail, versions] = await Promise.all([orNotFound(versionDetail(caller, space.id, v)), listVersions(caller, space.id)]);
  const path = one(search.path);
  const dir = one(search.dir) ?? (path?.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const folder = listFolder(detail.files, dir);
  // A file the chosen version lacks is said so beside the tree, not a missing page.
  const file = path
    ? await readFile(caller, space.id, path.split('/'), v).catch((error) => {
        if (error instanceof ApiError && error.code === 'not_found') return null;
        throw error;
      })
    : null;
  const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  const here = (n: number) => spaceHref(space.id, '', { v: n === space.latestVersion ? undefined : n, ...(path ? { path } : { dir }) });

  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <div className="min-w-0 space-y-3">
        <VersionPicker
          current={v}
          versions={versions.map((version) => ({ number: version.number, label: `${version.number} · ${formatTime(version.createdAt)}` }))}
          hrefFor={Object.fromEntries(versions.map((version) => [version.number, here(version.number)]))}
        />
        <nav aria-label="Files" className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900">
          <p className="mb-2 font-mono text-slate-500 [overflow-wrap:anywhere]">/{dir}</p>
          <ul className="space-y-1">
            {dir ? (
              <li>
                <a href={spaceHref(space.id, '', { v, dir: parent })} className="text-brand dark:text-indigo-300">
                  ../
                </a>
              </li>
            ) : null}
            {folder.folders.map((name) => (
              <li key={name}>
                <a href={spaceHref(space.id, '', { v, dir: dir ? `${dir}/${name}` : name })} className="text-brand [overflow-wrap:anywhere] dark:text-indigo-300">
                  {name}/
                </a>
              </li>
            ))}
            {folder.files.map((f) => (
              <li key={f.path}>
                <a
                  href={spaceHref(space.id, '', { v, path: f.path })}
                  aria-current={f.path === path ? 'page' : undefined}
                  className={`[overflow-wrap:anywhere] ${f.path === path ? 'font-semibold' : 'text-brand dark:text-indigo-300'}`}
                >
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
          links={{ spaceId: space.id, version: file.versionNumber, siteUrl: space.url, latest: space.latestVersion }}
          historyUrl={spaceHref(space.id, 'history', { file: file.file.path })}
          commentsUrl={spaceHref(space.id, 'comments', { path: file.file.path })}
        />
      ) : (
        <EmptyState>{path ? `${path} is not in version ${v}.` : 'Choose a file to see it.'}</EmptyState>
      )}
    </div>
  );
}
