import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeLines } from '@/components/spaces/code-lines.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import type { Space } from '@/lib/schemas/spaces.ts';
import type { readFile } from '@/lib/spaces/publishing.ts';
import { formatBytes } from '@/lib/format.ts';
import { encodePath, fileView, htmlLines, spaceAsset, spaceLink, typeLabel, type LinkContext } from '@/lib/web/file-view.ts';

type Props = {
  space: Pick<Space, 'id' | 'url' | 'latestVersion'>;
  /** The file of one version, as readFile answers it. */
  stored: StoredFile;
  historyUrl?: string;
  /** The file's comments page, where text is selected to start a thread. */
  commentsUrl?: string;
  /** Number the lines of text files, linkably (not on the Comments tab, where a selection is quoted: the numbers would be in it). */
  lineLinks?: boolean;
};

export type StoredFile = Awaited<ReturnType<typeof readFile>>;

export function FileViewer({ space, stored, ...props }: Props) {
  const { path, contentType, size, text, truncated } = stored.file;
  const view = fileView(path, contentType, text, stored.content);
  // Relative links and images of markdown lead to the file in this space and version, not to /spaces/<target>.
  const links: LinkContext = { spaceId: space.id, version: stored.versionNumber, siteUrl: space.url, latest: space.latestVersion };
  const urlTransform = (url: string, key: string) => {
    const safe = defaultUrlTransform(url);
    if (!safe) return safe;
    return key === 'src' ? spaceAsset(links, path, safe) : spaceLink(links, path, safe);
  };
  const downloadUrl = `/v1/spaces/${space.id}/download/${encodePath(path)}?v=${stored.versionNumber}`;
  return (
    <section aria-label={`File ${path}`} className="min-w-0 rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2 text-sm dark:border-slate-700">
        <span className="min-w-0 font-mono [overflow-wrap:anywhere]">{path}</span>
        <span className="flex flex-wrap items-center gap-3 text-slate-500 dark:text-slate-400">
          {typeLabel(path, contentType, text)} · {formatBytes(size)}
          {props.historyUrl ? (
            <ButtonLink href={props.historyUrl} variant="secondary" size="sm">
              History
            </ButtonLink>
          ) : null}
          {props.commentsUrl ? (
            <ButtonLink href={props.commentsUrl} variant="secondary" size="sm">
              Comments
            </ButtonLink>
          ) : null}
          <ButtonLink href={downloadUrl} variant="secondary" size="sm">
            Download
          </ButtonLink>
        </span>
      </div>
      <div className="min-w-0 p-4">
        {truncated ? <p className="mb-3 text-sm text-amber-800 dark:text-amber-300">Only the first 1 MiB is shown; download the file for all of it.</p> : null}
        {view.kind === 'markdown' ? (
          <article className="markdown max-w-none">
            <Markdown remarkPlugins={[remarkGfm]} urlTransform={urlTransform}>
              {stored.content}
            </Markdown>
          </article>
        ) : view.kind === 'image' && stored.rawUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- a published file, served by Atrium itself
          <img src={stored.rawUrl} alt={path} className="h-auto max-w-full" />
        ) : view.kind === 'code' && props.lineLinks ? (
          <CodeLines lines={htmlLines(view.html)} label={`Lines of ${path}`} />
        ) : view.kind === 'code' ? (
          // Focusable, so keyboards can scroll a long line sideways.
          <pre tabIndex={0} className="hljs max-w-full overflow-x-auto text-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-brand">
            <code dangerouslySetInnerHTML={{ __html: view.html }} />
          </pre>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">This file is not text; download it to open it.</p>
        )}
      </div>
    </section>
  );
}
