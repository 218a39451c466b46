// Hashes files for the pool in hash.ts, one at a time, streaming.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', async ({ id, file }: { id: number; file: string }) => {
  try {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    parentPort!.postMessage({ id, sha256: hash.digest('hex') });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
