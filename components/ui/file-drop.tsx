'use client';
// A styled file picker: click to choose or drop a file on it; the upload's
// progress is shown as a bar. The native input stays (visually hidden) for
// keyboards, screen readers and phones' pickers.
import { useId, useRef, useState } from 'react';
import { formatBytes } from '@/lib/web/format.ts';

export function FileDrop({ onFile, busy, progress, label = 'Choose a file or drop it here' }: { onFile: (file: File) => void; busy: boolean; progress: number | null; label?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [chosen, setChosen] = useState<File | null>(null);
  const take = (file: File | undefined) => {
    if (!file || busy) return;
    setChosen(file);
    onFile(file);
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
        take(event.dataTransfer.files[0]);
      }}
      className={`relative rounded-lg border-2 border-dashed p-5 text-center text-sm transition focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand ${over ? 'border-brand bg-brand-soft dark:bg-indigo-950/50' : 'border-slate-300 dark:border-slate-600'}`}
    >
      <input
        ref={input}
        id={id}
        type="file"
        aria-label="File to upload"
        className="sr-only"
        disabled={busy}
        onChange={(event) => {
          take(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <label htmlFor={id} className="cursor-pointer">
        <span className="font-medium text-brand dark:text-indigo-300">{label}</span>
        <span className="mt-1 block text-xs text-slate-500">Any kind of file; it is kept beside the space&apos;s versions.</span>
      </label>
      {chosen && (busy || progress !== null) ? (
        <div className="mt-3 text-left">
          <p className="text-xs [overflow-wrap:anywhere]">
            {chosen.name} · {formatBytes(chosen.size)}
          </p>
          <div className="mt-1 h-2 overflow-hidden rounded bg-slate-200 dark:bg-slate-700" role="progressbar" aria-label={`Uploading ${chosen.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round((progress ?? 0) * 100)}>
            <div className="h-full bg-brand transition-all dark:bg-indigo-400" style={{ width: `${Math.round((progress ?? 0) * 100)}%` }} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
