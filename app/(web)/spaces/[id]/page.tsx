import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { DeployDrop } from '@/components/spaces/deploy-drop.tsx';
import { FileViewer } from '@/components/spaces/file-viewer.tsx';
import { FileTree } from '@/components/spaces/file-tree.tsx';
import { VersionPicker } from '@/components/spaces/version-picker.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { CommandSteps } from '@/components/ui/command-steps.tsx';
import { config } from '@/lib/config.ts';
import { ApiError } from '@/lib/core/errors.ts';
import { listVersions, readFile, versionDetail } from '@/lib/spaces/publishing.ts';
import { spaceCommands } from '@/lib/web/cli-commands.ts';
import { formatBytes } from '@/lib/format.ts';
import { formatTime } from '@/lib/web/format.ts';
import { fileTree, folderAt, readmeOf, type TreeFolder } from '@/lib/web/file-view.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { one, spaceHref, versionNumber, type SearchParams } from '@/lib/web/space-page.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'Space' };
export const dynamic = 'force-dynamic';

const LEGACY_TABS = ['history', 'uploads', 'visitors', 'settings'];
/** Versions with more files show only the folders on the way to the one shown in the tree, so the page stays small. */
const WHOLE_TREE_FILES = 1_000;

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
  // First on the page, empty or not, so that its answer (the new version's link) outlives the refresh that follows a publish.
  const drop = space.permissions.push ? <DeployDrop spaceId={space.id} /> : null;
  if (!space.latestVersion) {
    return (
      <>
        {drop}
        {drop ? (
          <Card title="Or publish from a terminal">
            <CommandSteps steps={spaceCommands(config.publicUrl, space.id)} />
          </Card>
        ) : (
          <EmptyState title="Nothing is published yet">When a version is published, its files appear here.</EmptyState>
        )}
      </>
    );
  }
  const v = versionNumber(one(search.v)) ?? space.latestVersion;
  const [detail, versions] = await Promise.all([orNotFound(versionDetail(caller, space.id, v)), listVersions(caller, space.id)]);
  const path = one(search.path);
  const dir = one(search.dir) ?? (path?.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const tree = fileTree(detail.files);
  const folder = path ? null : folderAt(tree, dir);
  // Under a folder's list, its README, as on GitHub.
  const shownPath = path ?? (folder && readmeOf(folder.files)?.path);
  // A file the chosen version lacks is said so beside the tree, not a missing page.
  const file = shownPath
    ? await readFile(caller, space.id, shownPath.split('/'), v).catch((error) => {
        if (error instanceof ApiError && error.code === 'not_found') return null;
        throw error;
      })
    : null;
  const here = (n: number) => spaceHref(space.id, '', { v: n === space.latestVersion ? undefined : n, ...(path ? { path } : { dir }) });
  const fileHref = (p: string) => spaceHref(space.id, '', { v, path: p });
  const folderHref = (d: string) => spaceHref(space.id, '', { v, dir: d });
  const viewer = file ? (
    <FileViewer
      space={space}
      stored={file}
      historyUrl={spaceHref(space.id, 'history', { file: file.file.path })}
      commentsUrl={spaceHref(space.id, 'comments', { path: file.file.path })}
      lineLinks
    />
  ) : null;

  return (
    <>
      {drop}
      <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <div className="min-w-0 space-y-3">
          <VersionPicker
            current={v}
            versions={versions.map((version) => ({ number: version.number, label: `${version.number} · ${formatTime(version.createdAt)}` }))}
            hrefFor={Object.fromEntries(versions.map((version) => [version.number, here(version.number)]))}
          />
          {/* In one column (phones) the folder's own list below is the way around: the tree would list the same files again. */}
          <nav aria-label="Files" className={`${folder ? 'hidden lg:block' : ''} rounded-lg border border-slate-200 bg-surface p-3 text-sm dark:border-slate-700`}>
            <FileTree folder={tree} shown={path ?? dir} whole={detail.files.length <= WHOLE_TREE_FILES} fileHref={fileHref} folderHref={folderHref} />
            <p className="mt-3 text-xs text-muted">
              {detail.version.fileCount.toLocaleString('en')} files, {formatBytes(detail.version.bytes)} in version {detail.version.number}
            </p>
          </nav>
        </div>
        {folder ? (
          <div className="min-w-0 space-y-6">
            <FolderList folder={folder} fileHref={fileHref} folderHref={folderHref} />
            {viewer}
          </div>
        ) : (
          (viewer ?? <EmptyState>{path ? `${path} is not in version ${v}.` : `The folder ${dir} is not in version ${v}.`}</EmptyState>)
        )}
      </div>
    </>
  );
}

/** A folder's entries, as GitHub lists them above the README: folders first, each with its size. */
function FolderList({ folder, fileHref, folderHref }: { folder: TreeFolder; fileHref: (path: string) => string; folderHref: (path: string) => string }) {
  const parent = folder.path.includes('/') ? folder.path.slice(0, folder.path.lastIndexOf('/')) : '';
  const link = 'text-link [overflow-wrap:anywhere]';
  return (
    <section aria-label={`Folder /${folder.path}`} className="min-w-0 rounded-lg border border-line bg-surface">
      <h2 className="border-b border-line px-4 py-2 font-mono text-sm [overflow-wrap:anywhere]">/{folder.path}</h2>
      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {folder.path ? (
            <tr>
              <td className="px-4 py-1.5" colSpan={2}>
                <a href={folderHref(parent)} className={link} aria-label="Parent folder">
                  ..
                </a>
              </td>
            </tr>
          ) : null}
          {[...folder.folders.map((f) => ({ ...f, href: folderHref(f.path), label: `${f.name}/` })), ...folder.files.map((f) => ({ ...f, href: fileHref(f.path), label: f.name }))].map((entry) => (
            <tr key={entry.path}>
              <td className="px-4 py-1.5">
                <a href={entry.href} className={link}>
                  {entry.label}
                </a>
              </td>
              <td className="whitespace-nowrap px-4 py-1.5 text-right text-muted tabular-nums">{formatBytes(entry.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
