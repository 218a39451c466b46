import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/core/errors.ts';
import { filesystemStore } from '@/lib/storage/filesystem.ts';
import type { BlobStore } from '@/lib/storage/index.ts';
import { s3Store } from '@/lib/storage/s3.ts';
import { vercelBlobStore } from '@/lib/storage/vercel-blob.ts';
import { startS3StandIn } from '../../scripts/s3-stand-in.ts';
import { startBlobStandIn } from '../vercel-blob-stand-in.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const stream = (text: string) => new Response(text).body!;

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? error.code : String(error);
  }
}

function contract(name: string, make: () => Promise<{ store: BlobStore; stored: () => Promise<string[]> }>) {
  describe(name, () => {
    it('stores bytes under their hash and reads them back', async () => {
      const { store } = await make();
      expect(await store.put(stream('hello'), { sha256: sha('hello'), maxBytes: 100 })).toEqual({ sha256: sha('hello'), size: 5 });
      expect(await new Response(await store.get(sha('hello'))).text()).toBe('hello');
      expect(await store.put(stream('no hash given'), { maxBytes: 100 })).toEqual({ sha256: sha('no hash given'), size: 13 });
      expect(await store.get(sha('never stored'))).toBeNull();
    });

    it('says it can be written (readiness)', async () => {
      const { store } = await make();
      await expect(store.check()).resolves.toBeUndefined();
    });

    it('refuses bytes that do not match the hash and keeps nothing of them', async () => {
      const { store, stored } = await make();
      const before = await stored();
      expect(await code(store.put(stream('actual'), { sha256: sha('expected'), maxBytes: 100 }))).toBe('bad_request');
      expect(await stored()).toEqual(before);
      expect(await store.get(sha('actual'))).toBeNull();
    });

    it('stops past the size limit and keeps nothing', async () => {
      const { store, stored } = await make();
      const before = await stored();
      expect(await code(store.put(stream('x'.repeat(1000)), { maxBytes: 999 }))).toBe('too_large');
      expect(await stored()).toEqual(before);
    });

    it('reads the same bytes when told the size, small or large', async () => {
      const { store } = await make();
      const large = 'L'.repeat(300 * 1024);
      await store.put(stream('small and known'), { maxBytes: 100 });
      await store.put(stream(large), { maxBytes: large.length });
      expect(await new Response(await store.get(sha('small and known'), 15)).text()).toBe('small and known');
      expect(await new Response(await store.get(sha(large), large.length)).text()).toBe(large);
      expect(await store.get(sha('never stored'), 12)).toBeNull();
    });

    it('reads a span of a blob without the rest', async () => {
      const { store } = await make();
      const large = Array.from({ length: 5_000 }, (_, i) => `${i},`).join('');
      await store.put(stream(large), { maxBytes: large.length });
      expect(await new Response(await store.get(sha(large), large.length, { start: 1000, end: 1999 })).text()).toBe(large.slice(1000, 2000));
      expect(await new Response(await store.get(sha(large), undefined, { start: large.length - 7, end: large.length - 1 })).text()).toBe(large.slice(-7));
      expect(await new Response(await store.get(sha(large), 5, { start: 0, end: 1 })).text()).toBe(large.slice(0, 2));
      expect(await store.get(sha('never stored'), 12, { start: 0, end: 3 })).toBeNull();
    });

    it('keeps compressed copies beside a blob, per coding, and deletes them with it', async () => {
      const { store, stored } = await make();
      const before = await stored();
      const source = `copied ${name}`;
      await store.put(stream(source), { maxBytes: 100 });
      const br = brotliCompressSync(source);
      const gzipped = gzipSync(source);
      await store.putCopy(sha(source), 'br', br);
      await store.putCopy(sha(source), 'gzip', gzipped);
      await store.putCopy(sha(source), 'br', br);
      expect(Buffer.from((await store.getCopy(sha(source), 'br'))!).equals(br)).toBe(true);
      expect(Buffer.from((await store.getCopy(sha(source), 'gzip'))!).equals(gzipped)).toBe(true);
      expect(await store.getCopy(sha('never stored'), 'br')).toBeNull();
      await store.delete([sha(source)]);
      expect(await store.get(sha(source))).toBeNull();
      expect(await store.getCopy(sha(source), 'br')).toBeNull();
      expect(await store.getCopy(sha(source), 'gzip')).toBeNull();
      expect(await stored()).toEqual(before);
    });

    it('keeps no copy of a blob that is gone (the collector deleted it meanwhile)', async () => {
      const { store, stored } = await make();
      const before = await stored();
      await store.putCopy(sha(`gone ${name}`), 'br', brotliCompressSync(`gone ${name}`));
      expect(await store.getCopy(sha(`gone ${name}`), 'br')).toBeNull();
      expect(await stored()).toEqual(before);
    });

    it('records a blob once it is visible, and puts its bytes back when they went meanwhile and record asks', async () => {
      const { store, stored } = await make();
      const before = await stored();
      const seen: (string | null)[] = [];
      const put = (text: string, deleteFirst: boolean, check: boolean) =>
        store.put(stream(text), {
          sha256: sha(text),
          maxBytes: 100,
          record: async (blob) => {
            seen.push(await new Response(await store.get(blob.sha256)).text());
            // What the collector may do between the bytes showing and the statement that names them.
            if (deleteFirst) await store.delete([blob.sha256]);
            return check;
          },
        });
      await put(`put back ${name}`, true, true);
      expect(await new Response(await store.get(sha(`put back ${name}`))).text()).toBe(`put back ${name}`);
      await put(`not asked ${name}`, true, false);
      expect(await store.get(sha(`not asked ${name}`))).toBeNull();
      expect(seen).toEqual([`put back ${name}`, `not asked ${name}`]);
      // Refused after the fact: the bytes stay under their name, and no temporary copy is left.
      expect(await code(store.put(stream(`refused ${name}`), { maxBytes: 100, record: () => Promise.reject(new Error('refused')) }))).toBe('Error: refused');
      expect(await new Response(await store.get(sha(`refused ${name}`))).text()).toBe(`refused ${name}`);
      expect((await stored()).filter((f) => !before.includes(f)).filter((f) => f.includes('tmp'))).toEqual([]);
      await put(`already there ${name}`, false, true);
      await put(`already there ${name}`, false, true);
      expect(await new Response(await store.get(sha(`already there ${name}`))).text()).toBe(`already there ${name}`);
    });

    it('takes the same blob twice at once', async () => {
      const { store } = await make();
      await Promise.all([1, 2, 3].map(() => store.put(stream('twice'), { sha256: sha('twice'), maxBytes: 100 })));
      expect(await new Response(await store.get(sha('twice'))).text()).toBe('twice');
    });
  });
}

contract('filesystem store', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'atrium-blobs-'));
  return { store: filesystemStore(root), stored: () => files(root) };
});

describe('filesystem store layout', () => {
  it('names blobs ab/cd/<sha256> and leaves no temporary file behind', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'atrium-blobs-'));
    const store = filesystemStore(root);
    await store.put(stream('layout'), { maxBytes: 100 });
    await code(store.put(stream('mismatch'), { sha256: sha('other'), maxBytes: 100 }));
    const hash = sha('layout');
    expect(await files(root)).toEqual([path.join(hash.slice(0, 2), hash.slice(2, 4), hash)]);
  });

  it('makes its folders again when they are removed while it runs', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'atrium-blobs-'));
    const store = filesystemStore(root);
    await store.put(stream('first'), { maxBytes: 100 });
    await rm(root, { recursive: true });
    expect(await store.put(stream('first'), { maxBytes: 100 })).toEqual({ sha256: sha('first'), size: 5 });
    expect(await new Response(await store.get(sha('first'))).text()).toBe('first');
  });

  it('writes a blob of many chunks, larger than one write, intact', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'atrium-blobs-'));
    const store = filesystemStore(root);
    const chunk = 'abcdefgh'.repeat(8 * 1024); // 64 KiB
    const text = chunk.repeat(20) + 'end';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(chunk));
        controller.enqueue(new TextEncoder().encode('end'));
        controller.close();
      },
    });
    expect(await store.put(body, { sha256: sha(text), maxBytes: text.length })).toEqual({ sha256: sha(text), size: text.length });
    expect(await new Response(await store.get(sha(text))).text()).toBe(text);
  });
});

describe('Vercel Blob store against a local stand-in', () => {
  const token = 'vercel_blob_rw_teststore_secret123';
  let standIn: Awaited<ReturnType<typeof startBlobStandIn>>;
  beforeAll(async () => {
    standIn = await startBlobStandIn(token);
    process.env.VERCEL_BLOB_API_URL = standIn.apiUrl;
    process.env.VERCEL_BLOB_RETRIES = '0';
  });
  afterAll(async () => {
    delete process.env.VERCEL_BLOB_API_URL;
    await standIn.close();
  });

  contract('contract', async () => ({ store: vercelBlobStore(token), stored: async () => [...standIn.blobs.keys()].sort() }));

  it('keeps blobs as blobs/<sha256>, private, with nothing left under tmp/', async () => {
    await vercelBlobStore(token).put(stream('named'), { maxBytes: 100 });
    expect(standIn.blobs.has(`blobs/${sha('named')}`)).toBe(true);
    expect([...standIn.blobs.keys()].filter((k) => k.startsWith('tmp/'))).toEqual([]);
  });
});

describe('S3-compatible store against a local S3 server', () => {
  let s3: Awaited<ReturnType<typeof startS3StandIn>>;
  beforeAll(async () => {
    s3 = await startS3StandIn();
  });
  afterAll(() => s3.close());
  const objects = async () => (await files(s3.directory)).filter((f) => !f.includes('readiness-check') && !f.endsWith('.keep'));

  contract('contract', async () => ({ store: s3Store(s3.config), stored: objects }));

  it('keeps blobs as blobs/<sha256>, streams a blob of several parts intact, and sweeps what a crash left under tmp/', async () => {
    const store = s3Store(s3.config);
    await store.put(stream('named'), { maxBytes: 100 });
    expect((await objects()).some((f) => f.includes(`blobs/${sha('named')}`))).toBe(true);
    // 20 MiB: three multipart parts of 8 MiB, never all in memory at once.
    const part = new Uint8Array(1024 * 1024).fill(7);
    const hash = createHash('sha256');
    for (let i = 0; i < 20; i++) hash.update(part);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 20) return controller.close();
        controller.enqueue(part);
      },
    });
    const big = await store.put(body, { sha256: hash.digest('hex'), maxBytes: 21 * 1024 * 1024 });
    expect(big.size).toBe(20 * 1024 * 1024);
    let read = 0;
    for await (const chunk of (await store.get(big.sha256))!) read += chunk.byteLength;
    expect(read).toBe(20 * 1024 * 1024);
    expect((await objects()).filter((f) => f.includes('tmp/'))).toEqual([]);
  });

  it('checks readiness without the SDK writing a warning to the log (every /readyz runs it)', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      await s3Store(s3.config).check();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
