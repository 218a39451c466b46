// SHA-256 of every file to push, computed by a bounded pool of worker threads.
// Hashes are cached by size and modification time in .atrium/cache.json, so
// that an unchanged re-push hashes nothing.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LocalFile } from './walk.ts';

type CacheEntry = { size: number; mtimeMs: number; sha256: string };
type Cache = { files: Record<string, CacheEntry> };

const cacheFile = (root: string) => path.join(root, '.atrium', 'cache.json');

async function readCache(root: string): Promise<Cache> {
  try {
    const cache = JSON.parse(await readFile(cacheFile(root), 'utf8')) as Cache;
    return cache && typeof cache.files === 'object' ? cache : { files: {} };
  } catch {
    return { files: {} };
  }
}

async function writeCache(root: string, cache: Cache) {
  const file = cacheFile(root);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(cache));
  await rename(`${file}.tmp`, file);
}

// From a checkout the worker is the .ts file beside this one; in the packaged
// bundle (dist/, beside the chunk this code is in) it is the bundled dist/hash-worker.js.
const workerFile = new URL(import.meta.url.endsWith('.ts') ? './hash-worker.ts' : './hash-worker.js', import.meta.url);

function hashInPool(paths: string[], onHashed: (index: number, sha256: string) => void): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  const size = Math.min(paths.length, Math.max(1, Math.min(4, os.availableParallelism())));
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    const finish = (error?: Error) => {
      for (const w of workers) void w.terminate();
      if (error) reject(error);
      else resolve();
    };
    const feed = (worker: Worker) => {
      if (next < paths.length) worker.postMessage({ id: next, file: paths[next++] });
    };
    for (let i = 0; i < size; i++) {
      const worker = new Worker(workerFile);
      worker.on('message', (message: { id: number; sha256?: string; error?: string }) => {
        if (message.error) return finish(new Error(`Cannot read ${paths[message.id]}: ${message.error}`));
        onHashed(message.id, message.sha256!);
        if (++done === paths.length) return finish();
        feed(worker);
      });
      worker.on('error', finish);
      workers.push(worker);
      feed(worker);
    }
  });
}

/**
 * sha256 by file path, and how many files had to be read. `onHashed` is told of
 * every file as its hash becomes known, from the cache or read.
 */
export async function hashFiles(
  root: string,
  files: LocalFile[],
  onHashed: (file: LocalFile) => void,
): Promise<{ hashes: Map<string, string>; read: number }> {
  const cache = await readCache(root);
  const hashes = new Map<string, string>();
  const todo: LocalFile[] = [];
  for (const file of files) {
    const cached = cache.files[file.path];
    if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) {
      hashes.set(file.path, cached.sha256);
      onHashed(file);
    } else {
      todo.push(file);
    }
  }
  await hashInPool(
    todo.map((f) => f.absolute),
    (index, sha256) => {
      hashes.set(todo[index].path, sha256);
      onHashed(todo[index]);
    },
  );
  // Every file answered by the cache, and none gone from the folder: the cache is as it would be written.
  if (todo.length || Object.keys(cache.files).length !== files.length) {
    const fresh: Cache = { files: {} };
    for (const file of files) fresh.files[file.path] = { size: file.size, mtimeMs: file.mtimeMs, sha256: hashes.get(file.path)! };
    await writeCache(root, fresh);
  }
  return { hashes, read: todo.length };
}
