import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ButtonLink } from '@/components/ui/button.tsx';
import { fileView } from '@/lib/web/file-view.ts';

type Props = {
  path: string;
  contentType: string;
  size: number;
  text: boolean;
  truncated: boolean;
  content: string;
  rawUrl: string | null;
  downloadUrl: string;
};

/** One file of a version: markdown rendered, code highlighted, images shown, other files offered for download. */
export function FileViewer(props: Props) {
  const view = fileView(props.path, props.contentType, props.text, props.content);
  return (
    <section aria-label={`File ${props.path}`} className="rounded-lg border border-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2 text-sm">
        <span className="font-mono break-all">{props.path}</span>
        <span className="flex items-center gap-3 text-slate-500">
          {props.contentType.split(';')[0]} · {props.size.toLocaleString('en')} bytes
          <ButtonLink href={props.downloadUrl} variant="secondary">
            Download
          </ButtonLink>
        </span>
      </div>
      <div className="overflow-x-auto p-4">
        {props.truncated ? <p className="mb-3 text-sm text-amber-800">Only the first 1 MiB is shown; download the file for all of it.</p> : null}
        {view.kind === 'markdown' ? (
          <article className="markdown max-w-none">
            <Markdown remarkPlugins={[remarkGfm]}>{props.content}</Markdown>
          </article>
        ) : view.kind === 'image' && props.rawUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- a published file, served by Atrium itself
          <img src={props.rawUrl} alt={props.path} className="max-w-full" />
        ) : view.kind === 'code' ? (
          <pre className="hljs text-sm leading-relaxed">
            <code dangerouslySetInnerHTML={{ __html: view.html }} />
          </pre>
        ) : (
          <p className="text-sm text-slate-600">This file is not text; download it to open it.</p>
        )}
      </div>
    </section>
  );
}
