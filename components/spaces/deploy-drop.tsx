'use client';
// Publish from the browser: a folder or a .zip, dropped or chosen, becomes a
// new version of the space (lib/web/deploy.ts), with progress and a link to it.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { FileDrop, type DropProgress, type PickedFile } from '@/components/ui/file-drop.tsx';
import { deploy, siteFiles, type DeployProgress, type DeployResult } from '@/lib/web/deploy.ts';
import { formatBytes } from '@/lib/format.ts';
import { plural } from '@/lib/web/format.ts';

const PICKERS = [
  { label: 'Folder to publish', text: 'Choose a folder', folder: true },
  { label: 'Zip file to publish', text: 'or a .zip file', accept: '.zip,application/zip' },
];

function shown(p: DeployProgress): DropProgress {
  const hashed = `Hashed ${p.hashed} of ${plural(p.files, 'file')}`;
  const uploaded = `uploaded ${formatBytes(p.sent)} of ${formatBytes(p.bytes)}`;
  switch (p.phase) {
    case 'hashing':
      return { label: 'Hashing files', detail: `${hashed}…`, done: p.hashed / p.files };
    case 'planning':
      return { label: 'Comparing with the latest version', detail: `${hashed} · comparing with the latest version…`, done: 0 };
    case 'uploading':
      return { label: 'Uploading files', detail: `${hashed} · ${uploaded}`, done: p.bytes ? p.sent / p.bytes : 1 };
    case 'committing':
      return { label: 'Publishing', detail: `${hashed} · ${uploaded} · publishing…`, done: 1 };
  }
}

export function DeployDrop({ spaceId }: { spaceId: string }) {
  const router = useRouter();
  const [progress, setProgress] = useState<DropProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<DeployResult | null>(null);

  async function publish(picked: PickedFile[]) {
    setError(null);
    setResult(null);
    setProgress({ label: 'Reading files', detail: 'Reading files…', done: 0 });
    try {
      const files = await siteFiles(picked.map(({ path, file }) => ({ path, blob: file })));
      if (!files.length) throw new Error('There is nothing to publish: dotfiles and __MACOSX are left out, and nothing else was there.');
      // What was dropped, named in the version's message (at most 1,000 characters).
      const source = (picked.length === 1 ? picked[0].path : picked[0].path.split('/')[0]).slice(0, 200);
      setResult(await deploy(spaceId, files, `Published from the browser (${source})`, (p) => setProgress(shown(p))));
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setProgress(null);
    }
  }

  return (
    <section aria-labelledby="deploy-drop" className="space-y-2">
      <h2 id="deploy-drop" className="font-semibold">
        Publish a new version
      </h2>
      <FileDrop onFiles={(picked) => void publish(picked)} busy={progress !== null} progress={progress} pickers={PICKERS} hint="Drop a folder or a .zip here. Dotfiles are left out; a single top folder becomes the site's root." />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <p role="status" className="text-sm">
        {result?.version ? (
          <>
            Published{' '}
            <a href={`/spaces/${spaceId}?v=${result.version.number}`} className="font-medium text-link underline">
              version {result.version.number}
            </a>{' '}
            ({plural(result.version.fileCount, 'file')}).{' '}
            <a href={result.url} className="text-link underline">
              Open the site
            </a>
          </>
        ) : result ? (
          'Nothing changed: these files are already the latest version.'
        ) : null}
      </p>
      {result?.rules?.ignored.length ? (
        <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-300" aria-label="Rules left out">
          {result.rules.ignored.map((line) => (
            <li key={`${line.file}:${line.line}`}>
              {line.file}
              {line.line ? ` line ${line.line}` : ''} left out: {line.reason}
            </li>
          ))}
          {result.rules.ignoredCount > result.rules.ignored.length ? <li>{result.rules.ignoredCount - result.rules.ignored.length} more lines left out</li> : null}
        </ul>
      ) : null}
    </section>
  );
}
