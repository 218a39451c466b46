// Blobs in a Vercel Blob store (private access), named blobs/<sha256>, and
// their compressed copies, copies/<sha256>.<coding>, each put whole. Bytes
// are streamed to a temporary name while hashed; only bytes that match are
// copied to their final name, so a wrong or partial upload is never visible.
// The API's address can be changed with VERCEL_BLOB_API_URL (read by
// @vercel/blob itself), which the tests point at a local stand-in.
import { randomUUID } from 'node:crypto';
import { BlobNotFoundError, copy, del, head, list, put } from '@vercel/blob';
import { CODINGS, type Coding } from '../core/files.ts';
import type { BlobStore, ByteSpan } from './index.ts';
import { hashMismatch, meter } from './meter.ts';

export function vercelBlobStore(token: string): BlobStore {
  const options = { access: 'private' as const, token };
  const blobName = (sha256: string) => `blobs/${sha256}`;
  const copyName = (sha256: string, coding: Coding) => `copies/${sha256}.${coding}`;
  // Blob URLs never change (content addressing), so one lookup per name is enough.
  const urls = new Map<string, string>();

  async function urlOf(name: string, { fresh = false } = {}): Promise<string | null> {
    const known = fresh ? undefined : urls.get(name);
    if (known) return known;
    try {
      const { url } = await head(name, { token });
      if (urls.size > 100_000) urls.clear();
      urls.set(name, url);
      return url;
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
  }

  async function read(name: string, span?: ByteSpan): Promise<ReadableStream<Uint8Array> | null> {
    const url = await urlOf(name);
    if (!url) return null;
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (span) headers.range = `bytes=${span.start}-${span.end}`;
    const response = await fetch(url, { headers });
    if (response.status === 404) return null;
    if (!response.ok || !response.body) throw new Error(`Vercel Blob answered ${response.status} for ${name}.`);
    return response.body as ReadableStream<Uint8Array>;
  }

  return {
    async put(body, { sha256, maxBytes, admit, record }) {
      const measured = meter(maxBytes);
      const temporary = await put(`tmp/${randomUUID()}`, body.pipeThrough(measured.transform()), {
        ...options,
        addRandomSuffix: false,
        contentType: 'application/octet-stream',
      }).catch((error) => {
        throw measured.failure() ?? error;
      });
      const stored = measured.result();
      try {
        if (sha256 && stored.sha256 !== sha256) throw hashMismatch(sha256, stored.sha256);
        await admit?.(stored);
        const name = blobName(stored.sha256);
        const place = async () => urls.set(name, (await copy(temporary.url, name, { ...options, addRandomSuffix: false, allowOverwrite: true })).url);
        await place();
        if ((await record?.(stored)) && !(await urlOf(name, { fresh: true }))) await place();
      } finally {
        await del(temporary.url, { token });
      }
      return stored;
    },

    get: (sha256, _size, span) => read(blobName(sha256), span),

    async getCopy(sha256, coding) {
      const body = await read(copyName(sha256, coding));
      return body && new Uint8Array(await new Response(body).arrayBuffer());
    },

    async putCopy(sha256, coding, bytes) {
      const name = copyName(sha256, coding);
      const copy = await put(name, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        ...options,
        addRandomSuffix: false,
        allowOverwrite: true,
        contentType: 'application/octet-stream',
      });
      // Asked again, not remembered: another node's collector may have deleted the blob.
      if (await urlOf(blobName(sha256), { fresh: true })) urls.set(name, copy.url);
      else await del(copy.url, { token });
    },

    async delete(sha256s) {
      const found = (await Promise.all(sha256s.map((sha256) => urlOf(blobName(sha256))))).filter((url) => url !== null);
      if (found.length) await del(found, { token });
      // Copies by name: looking each up first would cost a request per copy.
      const copies = sha256s.flatMap((sha256) => CODINGS.map((coding) => copyName(sha256, coding)));
      for (const name of [...sha256s.map(blobName), ...copies]) urls.delete(name);
      await del(copies, { token });
    },

    async sweepTemporary(before) {
      let removed = 0;
      let cursor: string | undefined;
      do {
        const page = await list({ prefix: 'tmp/', cursor, token });
        const stale = page.blobs.filter((b) => new Date(b.uploadedAt).getTime() < before.getTime()).map((b) => b.url);
        if (stale.length) await del(stale, { token });
        removed += stale.length;
        cursor = page.hasMore ? page.cursor : undefined;
      } while (cursor);
      return removed;
    },

    async check() {
      // The cheapest call that proves the token and the store answer.
      await list({ prefix: 'tmp/', limit: 1, token });
    },
  };
}
