// Blobs in a Vercel Blob store (private access), named blobs/<sha256>. Bytes
// are streamed to a temporary name while hashed; only bytes that match are
// copied to their final name, so a wrong or partial upload is never visible.
// The API's address can be changed with VERCEL_BLOB_API_URL (read by
// @vercel/blob itself), which the tests point at a local stand-in.
import { randomUUID } from 'node:crypto';
import { BlobNotFoundError, copy, del, head, list, put } from '@vercel/blob';
import type { BlobStore } from './index.ts';
import { hashMismatch, meter } from './meter.ts';

export function vercelBlobStore(token: string): BlobStore {
  const options = { access: 'private' as const, token };
  // Blob URLs never change (content addressing), so one lookup per blob is enough.
  const urls = new Map<string, string>();

  async function urlOf(sha256: string): Promise<string | null> {
    const known = urls.get(sha256);
    if (known) return known;
    try {
      const { url } = await head(`blobs/${sha256}`, { token });
      if (urls.size > 100_000) urls.clear();
      urls.set(sha256, url);
      return url;
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
  }

  return {
    async put(body, { sha256, maxBytes, admit }) {
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
        const final = await copy(temporary.url, `blobs/${stored.sha256}`, { ...options, addRandomSuffix: false, allowOverwrite: true });
        urls.set(stored.sha256, final.url);
      } finally {
        await del(temporary.url, { token });
      }
      return stored;
    },

    async get(sha256, _size, span) {
      const url = await urlOf(sha256);
      if (!url) return null;
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (span) headers.range = `bytes=${span.start}-${span.end}`;
      const response = await fetch(url, { headers });
      if (response.status === 404) return null;
      if (!response.ok || !response.body) throw new Error(`Vercel Blob answered ${response.status} for blob ${sha256}.`);
      return response.body as ReadableStream<Uint8Array>;
    },

    async delete(sha256s) {
      const found = (await Promise.all(sha256s.map(urlOf))).filter((url) => url !== null);
      for (const sha256 of sha256s) urls.delete(sha256);
      if (found.length) await del(found, { token });
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
