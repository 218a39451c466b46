// The files of a version as folders that open and close in place (native
// <details>, so Enter and Space toggle them and screen readers hear whether
// each is expanded), with the size of every file and folder.
import { focusRing } from '@/components/ui/button.tsx';
import { formatBytes } from '@/lib/format.ts';
import type { TreeFolder } from '@/lib/web/file-view.ts';

type Props = {
  folder: TreeFolder;
  /** The folder or file shown: the folders on the way to it start open. */
  shown: string;
  /** Whether every folder's contents are in the page; else only those on the way to `shown`, and the others are links that open them. */
  whole: boolean;
  fileHref: (path: string) => string;
  folderHref: (path: string) => string;
};

const size = (bytes: number) => <span className="shrink-0 text-xs text-muted tabular-nums">{formatBytes(bytes)}</span>;

export function FileTree(props: Props) {
  const { folder, shown } = props;
  return (
    <ul className="space-y-0.5">
      {folder.folders.map((child) => {
        const onTheWay = shown === child.path || shown.startsWith(`${child.path}/`);
        return (
          <li key={child.path}>
            {props.whole || onTheWay ? (
              <details open={onTheWay}>
                <summary className={`flex cursor-pointer list-none items-center justify-between gap-2 rounded px-1 hover:bg-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden ${focusRing}`}>
                  <span className="flex min-w-0 items-center gap-1 [overflow-wrap:anywhere]">
                    <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12" className="shrink-0 text-muted transition-transform [[open]>summary_&]:rotate-90">
                      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                    {child.name}/
                  </span>
                  {size(child.size)}
                </summary>
                <div className="ml-2 border-l border-line pl-2">
                  <FileTree {...props} folder={child} />
                </div>
              </details>
            ) : (
              <a href={props.folderHref(child.path)} className="flex items-center justify-between gap-2 px-1 text-link">
                <span className="min-w-0 pl-4 [overflow-wrap:anywhere]">{child.name}/</span>
                {size(child.size)}
              </a>
            )}
          </li>
        );
      })}
      {folder.files.map((file) => (
        <li key={file.path} className="flex items-center justify-between gap-2 px-1">
          <a
            href={props.fileHref(file.path)}
            aria-current={file.path === shown ? 'page' : undefined}
            className={`min-w-0 pl-4 [overflow-wrap:anywhere] ${file.path === shown ? 'font-semibold' : 'text-link'}`}
          >
            {file.name}
          </a>
          {size(file.size)}
        </li>
      ))}
    </ul>
  );
}
