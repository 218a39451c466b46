'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { FileDrop, type DropProgress } from '@/components/ui/file-drop.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { formatBytes } from '@/lib/format.ts';
import { plural } from '@/lib/web/format.ts';
import { uploadBytes } from '@/lib/web/upload.ts';

/** Uploads each file chosen or dropped, one after the other, as the raw body the API takes, with progress. */
export function UploadForm({ spaceId }: { spaceId: string }) {
  const router = useRouter();
  const toast = useToast();
  const [progress, setProgress] = useState<DropProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function upload(files: File[]) {
    setError(null);
    let sent = 0;
    for (const [index, file] of files.entries()) {
      const show = (done: number) =>
        setProgress({ label: `Uploading ${file.name}`, detail: `${files.length > 1 ? `${index + 1} of ${files.length}: ` : ''}${file.name} · ${formatBytes(file.size)}`, done });
      show(0);
      try {
        await uploadBytes('POST', web.url(spacesApi.upload, { params: { id: spaceId }, query: { name: file.name } }), file, (bytes, total) => show(bytes / Math.max(total, 1)));
        sent++;
      } catch (failure) {
        setError(`${file.name}: ${(failure as Error).message}${files.length - index > 1 ? ` The ${plural(files.length - index - 1, 'file')} after it were not sent.` : ''}`);
        break;
      }
    }
    setProgress(null);
    if (sent) {
      toast({ message: sent === 1 ? `Uploaded ${files[0].name}.` : `Uploaded ${plural(sent, 'file')}.` });
      router.refresh();
    }
  }

  return (
    <div className="mb-4 space-y-2">
      <FileDrop onFiles={(picked) => void upload(picked.map(({ file }) => file))} busy={progress !== null} progress={progress} />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
