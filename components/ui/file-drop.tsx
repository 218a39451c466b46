'use client';
// A styled file picker: click to choose or drop files on it; the upload's
// progress is shown as a bar for the file being sent. The native input stays
// (visually hidden) for keyboards, screen readers and phones' pickers.
import { useId, useRef, useState } from 'react';
import { formatBytes } from '@/lib/web/format.ts';

type Props = {
  onFiles: (files: File[]) => void;
  busy: boolean;
  /** The file being sent (with its place in the batch) and how far it is, 0 to 1. */
  progress: { file: File; index: number; count: number; done: number } | null;
  label?: string;
};

export function FileDrop({ onFiles, busy, progress, label = 'Choose files or drop them here' }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (files: FileList | null | undefined) => {
    if (!files?.length || busy) return;
    onFiles([...files]);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        take(event.dataTransfer.files);
      }}
      className={`relative rounded-lg border-2 border-dashed p-5 text-center text-sm transition focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand ${over ? 'border-brand bg-brand-soft dark:bg-indigo-950/50' : 'border-slate-300 dark:border-slate-600'}`}
    >
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        aria-label="Files to upload"
        className="sr-only"
        disabled={busy}
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
      <label htmlFor={id} className="cursor-pointer">
        <span className="font-medium text-brand dark:text-indigo-300">{label}</span>
        <span className="mt-1 block text-xs text-slate-500">Any kind of file; it is kept beside the space&apos;s versions.</span>
      </label>
      {progress ? (
        <div className="mt-3 text-left">
          <p className="text-xs [overflow-wrap:anywhere]">
            {progress.count > 1 ? `${progress.index + 1} of ${progress.count}: ` : ''}
            {progress.file.name} · {formatBytes(progress.file.size)}
          </p>
          <div className="mt-1 h-2 overflow-hidden rounded bg-slate-200 dark:bg-slate-700" role="progressbar" aria-label={`Uploading ${progress.file.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress.done * 100)}>
            <div className="h-full bg-brand transition-all dark:bg-indigo-400" style={{ width: `${Math.round(progress.done * 100)}%` }} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
