'use client';
// A styled file picker: click to choose or drop files on it; what is being
// done with them is shown as a bar below. The native inputs stay (visually
// hidden) for keyboards, screen readers and phones' pickers.
import { useId, useState } from 'react';

/** A chosen file and its path: its name, or where it sits in a chosen or dropped folder ("dist/index.html"). */
export type PickedFile = { path: string; file: File };

/** One way to choose: a native input under a visible text; `folder` makes it a folder picker. */
export type Picker = { label: string; text: string; accept?: string; folder?: boolean };

export type DropProgress = { label: string; detail: string; done: number };

type Props = {
  onFiles: (files: PickedFile[]) => void;
  busy: boolean;
  /** The bar's accessible name, a line saying what is happening, and how far it is, 0 to 1. */
  progress: DropProgress | null;
  pickers?: Picker[];
  hint?: string;
};

const FILES: Picker[] = [{ label: 'Files to upload', text: 'Choose files or drop them here' }];

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(dir: FileSystemDirectoryEntry, path: string, into: PickedFile[]) {
  const reader = dir.createReader();
  // readEntries answers in batches (100 in Chromium), then an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return;
    for (const entry of batch) {
      const at = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(entry as FileSystemDirectoryEntry, at, into);
      else into.push({ path: at, file: await fileOf(entry as FileSystemFileEntry) });
    }
  }
}

/** A drop's files; a dropped folder's `files` entry is the folder itself, so folders are walked through their entries. */
async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  // Entries can only be taken while the drop event runs, before any await.
  const items = [...data.items].map((item) => ({ entry: item.webkitGetAsEntry(), file: item.getAsFile() }));
  const picked: PickedFile[] = [];
  for (const { entry, file } of items) {
    if (entry?.isDirectory) await walk(entry as FileSystemDirectoryEntry, entry.name, picked);
    else if (file) picked.push({ path: file.name, file });
  }
  return picked;
}

export function FileDrop({ onFiles, busy, progress, pickers = FILES, hint = "Any kind of file; it is kept beside the space's versions." }: Props) {
  const id = useId();
  const [over, setOver] = useState(false);
  const take = (files: PickedFile[]) => {
    if (files.length && !busy) onFiles(files);
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
        if (!busy) void droppedFiles(event.dataTransfer).then(take);
      }}
      className={`relative rounded-lg border-2 border-dashed p-5 text-center text-sm transition focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand ${over ? 'border-brand bg-brand-soft dark:bg-indigo-950/50' : 'border-slate-300 dark:border-slate-600'}`}
    >
      <p className="flex flex-wrap justify-center gap-x-2">
        {pickers.map((picker, i) => (
          <span key={picker.label}>
            <input
              id={`${id}-${i}`}
              type="file"
              multiple
              aria-label={picker.label}
              accept={picker.accept}
              // React has no prop for the folder picker's attribute.
              {...(picker.folder ? { webkitdirectory: '' } : {})}
              className="sr-only"
              disabled={busy}
              onChange={(event) => {
                take([...(event.target.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file })));
                event.target.value = '';
              }}
            />
            <label htmlFor={`${id}-${i}`} className="cursor-pointer font-medium text-link">
              {picker.text}
            </label>
          </span>
        ))}
      </p>
      <p className="mt-1 text-xs text-muted">{hint}</p>
      {progress ? (
        <div className="mt-3 text-left">
          <p className="text-xs [overflow-wrap:anywhere]">{progress.detail}</p>
          <div className="mt-1 h-2 overflow-hidden rounded bg-slate-200 dark:bg-slate-700" role="progressbar" aria-label={progress.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress.done * 100)}>
            <div className="h-full bg-brand transition-all dark:bg-indigo-400" style={{ width: `${Math.round(progress.done * 100)}%` }} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
