'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { FileDrop } from '@/components/ui/file-drop.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';

/**
 * Uploads one file as the raw body, as the API takes it. XMLHttpRequest
 * rather than fetch: only it reports upload progress.
 */
export function UploadForm({ spaceId }: { spaceId: string }) {
  const router = useRouter();
  const toast = useToast();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  function upload(file: File) {
    setError(null);
    setProgress(0);
    const request = new XMLHttpRequest();
    request.open('POST', web.url(spacesApi.upload, { params: { id: spaceId }, query: { name: file.name } }));
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => event.lengthComputable && setProgress(event.loaded / event.total);
    request.onload = () => {
      setProgress(null);
      if (request.status >= 200 && request.status < 300) {
        toast({ message: `Uploaded ${file.name}.` });
        router.refresh();
        return;
      }
      let message = `The upload failed (${request.status}).`;
      try {
        message = JSON.parse(request.responseText).error.message ?? message;
      } catch {}
      setError(message);
    };
    request.onerror = () => {
      setProgress(null);
      setError('The upload did not reach the server. Check your connection and try again.');
    };
    request.send(file);
  }

  return (
    <div className="mb-4 space-y-2">
      <FileDrop onFile={upload} busy={progress !== null} progress={progress} />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
