// Compressed answers are compressed once: the copy is stored beside its blob
// (on disk, or in the bucket when run on S3 by `npm test`) and a restarted
// server serves it as stored instead of compressing again.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { blobStore } from '@/lib/storage/index.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawBytes as get } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push, sha } from './fixtures.ts';

const server = useFrontServer();


// About 100 KB, its own bytes in every run: the blob store outlives test runs.
const run = randomUUID();
let style = `/* ${run} */\n`;
for (let i = 0; style.length < 100_000; i++) style += `.card-${i} { margin: ${i % 13}px; color: #${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}; }\n`;

let spaceId = '';
beforeAll(async () => {
  const owner = await signIn('copies-owner', 'web');
  const space = await makeSpace(owner.token, 'copies-owner');
  await push(owner.token, space.id, { 'style.css': style });
  spaceId = space.id;
});

describe('stored compressed copies', () => {
  it('stores the brotli and gzip copies once, and a restarted server serves the stored copy without compressing again', async () => {
    const origin = onPort(siteUrl(spaceId), server.origin);
    const [first, second] = await Promise.all([1, 2].map(() => get(origin, '/style.css', { 'accept-encoding': 'br' })));
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(second.body.equals(first.body)).toBe(true);
    expect(brotliDecompressSync(first.body).toString()).toBe(style);
    const stored = await blobStore().getCopy(sha(style), 'br');
    expect(Buffer.from(stored!).equals(first.body)).toBe(true);

    const gzipped = await get(origin, '/style.css', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped.body).toString()).toBe(style);
    expect(Buffer.from((await blobStore().getCopy(sha(style), 'gzip'))!).equals(gzipped.body)).toBe(true);

    // A copy this server did not make (brotli at quality 1, other bytes): if
    // the restarted server sends exactly these, it read them from the store.
    const quick = brotliCompressSync(style, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    expect(quick.equals(first.body)).toBe(false);
    await blobStore().putCopy(sha(style), 'br', quick);

    // A restart: every module loaded afresh, so nothing is kept in memory.
    vi.resetModules();
    const { createFrontServer } = await import('@/server/index.ts');
    const restarted = createFrontServer();
    await new Promise<void>((resolve) => restarted.listen(0, '127.0.0.1', resolve));
    try {
      const again = await get(onPort(siteUrl(spaceId), `http://127.0.0.1:${(restarted.address() as AddressInfo).port}`), '/style.css', { 'accept-encoding': 'br' });
      expect(again.status).toBe(200);
      expect(again.headers.etag).toBe(`"${sha(style)}-br"`);
      expect(again.body.equals(quick)).toBe(true);
      expect(brotliDecompressSync(again.body).toString()).toBe(style);
      expect(Buffer.from((await blobStore().getCopy(sha(style), 'br'))!).equals(quick)).toBe(true);
    } finally {
      restarted.closeAllConnections();
      await new Promise((resolve) => restarted.close(resolve));
    }
  });
});
