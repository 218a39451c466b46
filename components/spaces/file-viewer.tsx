import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeLines } from '@/components/spaces/code-lines.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { formatBytes } from '@/lib/web/format.ts';
import { fileView, htmlLines, spaceAsset, spaceLink, typeLabel, type LinkContext } from '@/lib/web/file-view.ts';

type Props = {
  path: string;
  contentType: string;
  size: number;
  text: boolean;
  truncated: boolean;
  content: string;
  rawUrl: string | null;
  downloadUrl: string;
  /** Resolve relative links and images of markdown within this space and version. */
  links?: LinkContext;
  historyUrl?: string;
  /** The file's comments page, where text is selected to start a thread. */
  commentsUrl?: string;
  /** Number the lines of text files, linkably (not on the Comments tab, where a selection is quoted: the numbers would be in it). */
  lineLinks?: boolean;
};

/** One file of a version: markdown rendered, code highlighted, images shown, other files offered for download. */
export function FileViewer(props: Props) {
  const view = fileView(props.path, props.contentType, props.text, props.content);
  const links = props.links;
  // Relative links lead to the file in this space and version, not to /spaces/<target>.
  const urlTransform = (url: string, key: string) => {
    const safe = defaultUrlTransform(url);
    if (!links || !safe) return safe;
    return key === 'src' ? spaceAsset(links, props.path, safe) : spaceLink(links, props.path, safe);
  };
  return (
    <section aria-label={`File ${props.path}`} className="min-w-0 rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2 text-sm dark:border-slate-700">
        <span className="min-w-0 font-mono [overflow-wrap:anywhere]">{props.path}</span>
        <span className="flex flex-wrap items-center gap-3 text-slate-500 dark:text-slate-400">
          {typeLabel(props.path, props.contentType, props.text)} · {formatBytes(props.size)}
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
          <ButtonLink href={props.downloadUrl} variant="secondary" size="sm">
            Download
          </ButtonLink>
        </span>
      </div>
      <div className="min-w-0 p-4">
        {props.truncated ? <p className="mb-3 text-sm text-amber-800 dark:text-amber-300">Only the first 1 MiB is shown; download the file for all of it.</p> : null}
        {view.kind === 'markdown' ? (
          <article className="markdown max-w-none">
            <Markdown remarkPlugins={[remarkGfm]} urlTransform={urlTransform}>
              {props.content}
            </Markdown>
          </article>
        ) : view.kind === 'image' && props.rawUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- a published file, served by Atrium itself
          <img src={props.rawUrl} alt={props.path} className="h-auto max-w-full" />
        ) : view.kind === 'code' && props.lineLinks ? (
          <CodeLines lines={htmlLines(view.html)} label={`Lines of ${props.path}`} />
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
