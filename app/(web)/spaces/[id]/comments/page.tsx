import type { Metadata } from 'next';
import { CommentedFile } from '@/components/comments/commented-file.tsx';
import { ReviewFrame } from '@/components/comments/review-frame.tsx';
import { FileViewer } from '@/components/spaces/file-viewer.tsx';
import { EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { listBlockedUsers } from '@/lib/accounts/blocks.ts';
import type { Caller, SignedInCaller } from '@/lib/core/caller.ts';
import { listThreads } from '@/lib/comments/comments.ts';
import { reviewDocument } from '@/lib/comments/review.ts';
import { ApiError } from '@/lib/core/errors.ts';
import type { Space } from '@/lib/schemas/spaces.ts';
import { pageCaller } from '@/server/http/session.ts';
import { aliasVersion } from '@/lib/spaces/aliases.ts';
import { readFile } from '@/lib/spaces/publishing.ts';
import { pageNonce } from '@/lib/web/nonce.ts';
import { encodePath } from '@/lib/web/file-view.ts';
import { one, spaceHref, type SearchParams } from '@/lib/web/space-page.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';
import { plural } from '@/lib/web/format.ts';

export const metadata: Metadata = { title: 'Comments' };
export const dynamic = 'force-dynamic';

export default async function CommentsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const search = await searchParams;
  const { space } = await spacePage(id);
  const path = one(search.path);
  const preview = await previewOf(space, one(search.alias));
  return (
    <div>
      <h2 className="text-xl font-semibold [overflow-wrap:anywhere]">{path ?? 'Comments'}</h2>
      {preview ? (
        <p className="mt-1 text-sm text-muted">
          On the preview <span className="font-mono">{preview.alias}</span> (version {preview.version}): what you write here says so.
        </p>
      ) : null}
      <div className="mt-4">
        {one(search.alias) && !preview ? (
          <EmptyState>No alias {one(search.alias)} in this space.</EmptyState>
        ) : path ? (
          <FileWithComments space={space} path={path} review={one(search.review) === '1'} preview={preview} />
        ) : (
          <AllThreads space={space} preview={preview} />
        )}
      </div>
    </div>
  );
}

/** A preview people came through (an alias of the space) and the version it serves. */
type Preview = { alias: string; version: number } | null;

async function previewOf(space: Space, alias: string | undefined): Promise<Preview> {
  const version = alias ? await aliasVersion(space.id, alias) : null;
  return alias && version !== null ? { alias, version } : null;
}


/** The ids of the people the viewer blocked (none for a guest). */
async function blockedIds(caller: Caller): Promise<string[]> {
  return caller.actor ? (await listBlockedUsers(caller as SignedInCaller)).map((u) => u.id) : [];
}

async function AllThreads({ space, preview }: { space: Space; preview: Preview }) {
  const caller = await pageCaller();
  const [{ threads: all }, blocked] = await Promise.all([listThreads(caller, space.id, { status: 'all' }), blockedIds(caller)]);
  const threads = preview ? all.filter((t) => t.alias === preview.alias) : all;
  const alias = preview?.alias;
  const review = preview ? (
    <p className="mb-3 text-sm">
      <a href={spaceHref(space.id, 'comments', { path: 'index.html', alias, review: '1' })} className="text-link underline">
        Review the preview’s home page
      </a>
    </p>
  ) : null;
  if (!threads.length) {
    return (
      <>
        {review}
        <EmptyState>{preview ? `No comments through ${preview.alias} yet.` : 'No comments yet.'} Open a file and select text to start a thread.</EmptyState>
      </>
    );
  }
  const files = new Map<string, { open: number; resolved: number }>();
  for (const t of threads) {
    const count = files.get(t.path) ?? { open: 0, resolved: 0 };
    if (t.resolvedAt) count.resolved++;
    else count.open++;
    files.set(t.path, count);
  }
  return (
    <div className="space-y-6">
      {review}
      <Table label="Files with comments" headers={['File', 'Open', 'Resolved']}>
        {[...files].map(([path, count]) => (
          <tr key={path}>
            <Cell>
              <a href={spaceHref(space.id, 'comments', { path, alias })} className="font-mono text-link">
                {path}
              </a>
            </Cell>
            <Cell>{count.open}</Cell>
            <Cell>{count.resolved}</Cell>
          </tr>
        ))}
      </Table>
      <ul aria-label="Threads" className="space-y-2 text-sm">
        {threads.map((t) => (
          <li key={t.id} className="rounded-lg border border-line p-3">
            <a href={`${spaceHref(space.id, 'comments', { path: t.path, alias: t.alias ?? undefined })}#${t.id}`} className="font-mono text-link">
              {t.path}
            </a>{' '}
            {t.alias ? <>· via <span className="font-mono">{t.alias}</span> </> : null}
            · {t.author.kind === 'guest' ? `${t.author.name} (guest)` : t.author.handle ? `@${t.author.handle}` : t.author.name} · {t.resolvedAt ? 'resolved' : 'open'} · {plural(t.replies.length, 'reply', 'replies')}
            <p className="mt-1">{t.author.id && blocked.includes(t.author.id) ? 'Comment from someone you blocked.' : t.body.slice(0, 200)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

async function FileWithComments({ space, path, review, preview }: { space: Space; path: string; review: boolean; preview: Preview }) {
  const caller = await pageCaller();
  const file = await readFile(caller, space.id, path.split('/'), preview?.version).catch((error) => {
    if (error instanceof ApiError && (error.code === 'not_found' || error.code === 'bad_request')) return null;
    throw error;
  });
  if (!file) return <EmptyState>{path} is not in {preview ? `version ${preview.version}, which ${preview.alias} serves` : 'the latest version'}.</EmptyState>;
  const common = {
    spaceId: space.id,
    path: file.file.path,
    versionNumber: file.versionNumber,
    alias: preview?.alias ?? null,
    canComment: space.permissions.comment,
    signedIn: caller.actor !== null,
    userId: caller.actor?.user.id ?? null,
    canPush: space.permissions.push,
    blockedIds: await blockedIds(caller),
  };
  const html = /^text\/html/.test(file.file.contentType) && file.file.text;
  const toggle = html ? (
    <p className="mb-3 text-sm">
      <a href={spaceHref(space.id, 'comments', { path, alias: preview?.alias, review: review ? undefined : '1' })} className="text-link underline">
        {review ? 'Show the source' : 'Review the page'}
      </a>
    </p>
  ) : null;
  if (html && review) {
    const base = `${space.url}${encodePath(file.file.path)}`;
    return (
      <>
        {toggle}
        <ReviewFrame {...common} srcDoc={reviewDocument(file.content, base, await pageNonce())} />
      </>
    );
  }
  return (
    <>
      {toggle}
      <CommentedFile {...common}>
        <FileViewer space={space} stored={file} />
      </CommentedFile>
    </>
  );
}
