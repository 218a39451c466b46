// Compression of stored files: which coding a client gets, which types are
// compressed, and that compressing never takes every libuv thread from file
// reads.
import { readFile } from 'node:fs/promises';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chosenCoding, compress, compressible } from '@/server/http/encoding.ts';

describe('compression', () => {
  it('compresses text types, never images, video, archives or woff2', () => {
    for (const type of ['text/html; charset=utf-8', 'text/css', 'application/javascript', 'application/json', 'application/manifest+json', 'application/rss+xml', 'image/svg+xml', 'application/wasm', 'font/ttf']) {
      expect(compressible(type), type).toBe(true);
    }
    for (const type of ['image/png', 'image/jpeg', 'video/mp4', 'application/zip', 'application/gzip', 'font/woff2', 'font/woff', 'application/octet-stream']) {
      expect(compressible(type), type).toBe(false);
    }
  });

  it('takes no coding from a header that names none it can use', () => {
    for (const header of [null, '', 'identity', 'deflate, zstd', 'br;q=0, gzip;q=0', 'br;q=2', 'br;q=abc', '*;q=0']) expect(chosenCoding(header), String(header)).toBeNull();
  });

  it('leaves libuv threads for file reads while many files are compressed at once', async () => {
    // Six different stylesheets of 200 KB: brotli's best quality takes a good part of a second on each.
    const sheets = Array.from({ length: 6 }, (_, n) => Buffer.from(Array.from({ length: 8000 }, (_, i) => `.s${n}-${i}{margin:${(i * 7919 + n) % 997}px}\n`).join('')));
    const finished: string[] = [];
    const compressions = sheets.map((sheet, n) => compress(sheet, 'br').then((bytes) => (finished.push(`sheet ${n}`), bytes)));
    await readFile(new URL(import.meta.url)).then(() => finished.push('read'));
    expect(finished[0]).toBe('read');
    const compressed = await Promise.all(compressions);
    compressed.forEach((bytes, n) => expect(brotliDecompressSync(bytes).equals(sheets[n])).toBe(true));
  });
});
