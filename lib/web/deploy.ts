// Publishing from the browser, as Netlify Drop does: a dropped folder or .zip
// becomes a version through the cycle `atrium push` uses: hash every file,
// plan, upload the blobs the server lacks (a few at a time), commit.
import { unzipSync } from 'fflate';
import type { Answer } from '../client/index.ts';
import { eachLimit } from '../pool.ts';
import { spacesApi, type FileEntryInput } from '../schemas/spaces.ts';
import { AtriumApiError, web } from './api-client.ts';
import { uploadBytes } from './upload.ts';

/** A file to publish at `path` ("assets/app.css"). */
export type SiteFile = { path: string; blob: Blob };

export type DeployProgress = { phase: 'hashing' | 'planning' | 'uploading' | 'committing'; files: number; hashed: number; bytes: number; sent: number };

export type DeployResult = Answer<typeof spacesApi.commit>;

const CONCURRENCY = 4;

/** Left out as `atrium push` leaves them: dotfiles and dot-folders (.DS_Store, .git) but .well-known; and the Mac's __MACOSX in zips. */
function skipped(path: string): boolean {
  return path.split('/').some((part) => (part.startsWith('.') && part !== '.well-known') || part === '__MACOSX');
}

/** A .zip's files (folders' own entries aside), read in memory. */
export async function unzip(zip: Blob, name: string): Promise<SiteFile[]> {
  let entries: Record<string, Uint8Array<ArrayBuffer>>;
  try {
    entries = unzipSync(new Uint8Array(await zip.arrayBuffer()), { filter: (entry) => !entry.name.endsWith('/') && !skipped(entry.name) });
  } catch (error) {
    throw new Error(`${name} cannot be read as a zip file (${(error as Error).message}).`);
  }
  return Object.entries(entries).map(([path, bytes]) => ({ path, blob: new Blob([bytes]) }));
}

/**
 * What to publish from what was chosen: a single .zip is unpacked; skipped
 * files are left out; one folder holding everything (a dropped `dist`, a zip
 * of `site/`) is its root, as people expect.
 */
export async function siteFiles(picked: SiteFile[]): Promise<SiteFile[]> {
  const only = picked.length === 1 ? picked[0] : null;
  const files = (only && /\.zip$/i.test(only.path) ? await unzip(only.blob, only.path) : picked).filter((f) => !skipped(f.path));
  const top = files[0]?.path.split('/')[0];
  if (!top || !files.every((f) => f.path.startsWith(`${top}/`))) return files;
  return files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
}

async function sha256(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Publishes the files as a new version of the space, saying how far it is; fails with the API's message. */
export async function deploy(spaceId: string, files: SiteFile[], message: string, onProgress: (progress: DeployProgress) => void): Promise<DeployResult> {
  const progress: DeployProgress = { phase: 'hashing', files: files.length, hashed: 0, bytes: 0, sent: 0 };
  const report = () => onProgress({ ...progress });
  report();

  const entries: FileEntryInput[] = new Array(files.length);
  const blobs = new Map<string, Blob>();
  await eachLimit([...files.entries()], CONCURRENCY, async ([i, file]) => {
    const hash = await sha256(file.blob);
    entries[i] = { path: file.path, sha256: hash, size: file.blob.size };
    blobs.set(hash, file.blob);
    progress.hashed++;
    report();
  });

  const upload = async (missing: string[]) => {
    const wanted = [...new Set(missing)];
    const sent = new Map<string, number>();
    progress.bytes += wanted.reduce((n, hash) => n + blobs.get(hash)!.size, 0);
    progress.phase = 'uploading';
    report();
    const before = progress.sent;
    await eachLimit(wanted, CONCURRENCY, async (hash) => {
      const path = web.url(spacesApi.putBlob, { params: { id: spaceId, sha256: hash } });
      await uploadBytes('PUT', path, blobs.get(hash)!, (bytes) => {
        sent.set(hash, bytes);
        progress.sent = before + [...sent.values()].reduce((n, b) => n + b, 0);
        report();
      });
    });
  };
  // As the CLI: planning changes nothing, and committing the same list twice makes one version.
  const plan = () => {
    progress.phase = 'planning';
    report();
    return web.call(spacesApi.plan, { params: { id: spaceId }, body: { files: entries } });
  };
  const commit = () => {
    progress.phase = 'committing';
    report();
    return web.call(spacesApi.commit, { params: { id: spaceId }, body: { files: entries, message } });
  };

  await upload((await plan()).missing);
  try {
    return await commit();
  } catch (error) {
    if (!(error instanceof AtriumApiError && error.status === 409)) throw error;
    // A blob went missing between plan and commit (collected meanwhile): plan again, upload, commit.
    await upload((await plan()).missing);
    return await commit();
  }
}
