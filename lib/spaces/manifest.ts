// A version's manifest (path -> sha256, size, content type) is stored as
// content-addressed chunks of about 512 consecutive entries, sorted by path.
// A chunk ends after an entry whose path hashes to 0 modulo 512, so the
// boundaries depend only on the paths: a version that changes one file shares
// every chunk but one with its predecessor. The version row keeps the chunk
// index ({ first, hash, count }), about 40 bytes per 512 files.
//
// Chunks never change, so they are cached in memory by hash; reading one file
// of a 100,000-file version touches one chunk.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { db } from '../db/client.ts';
import type { Diff } from '../schemas/spaces.ts';
import { contentTypeOf } from './content.ts';

/** `db`, or inside a transaction its own client: never `db` there, which would take a second connection. */
export type Queryable = Pick<typeof db, '$queryRaw' | '$executeRaw'>;

export type Entry = { path: string; sha256: string; size: number; contentType: string | null };
export type ChunkRef = { first: string; hash: string; count: number };
export type Chunk = { hash: string; entries: Entry[]; json: string };

const AVERAGE_CHUNK = 512;
const MAX_CHUNK = 4096;

function pathHash(path: string): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Splits entries (sorted by path, unique) into chunks. */
export function chunkEntries(entries: Entry[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Entry[] = [];
  const close = () => {
    const json = JSON.stringify(current.map((e) => [e.path, e.sha256, e.size, e.contentType]));
    chunks.push({ hash: createHash('sha256').update(json).digest('hex'), entries: current, json });
    current = [];
  };
  for (const entry of entries) {
    current.push(entry);
    if (pathHash(entry.path) % AVERAGE_CHUNK === 0 || current.length >= MAX_CHUNK) close();
  }
  if (current.length) close();
  return chunks;
}

export function chunkRefs(chunks: Chunk[]): ChunkRef[] {
  return chunks.map((c) => ({ first: c.entries[0].path, hash: c.hash, count: c.entries.length }));
}

function decode(data: Uint8Array): Entry[] {
  const rows = JSON.parse(gunzipSync(data).toString('utf8')) as [string, string, number, string | null][];
  return rows.map(([path, sha256, size, contentType]) => ({ path, sha256, size, contentType }));
}

// Decoded chunks by hash, least recently used dropped first; bounded by entry count.
const CACHE_ENTRIES = 400_000;
const cache = new LRUCache<string, Entry[]>({ maxSize: CACHE_ENTRIES, sizeCalculation: (entries) => Math.max(1, entries.length) });

/** The entries of the given chunks, from memory or in one query. */
export async function loadChunks(hashes: string[], client: Queryable = db): Promise<Map<string, Entry[]>> {
  const found = new Map<string, Entry[]>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const entries = cache.get(hash);
    if (entries) {
      found.set(hash, entries);
    } else missing.push(hash);
  }
  if (missing.length) {
    const rows = await client.$queryRaw<{ hash: string; data: Uint8Array }[]>`SELECT "hash", "data" FROM "ManifestChunk" WHERE "hash" = ANY(${missing}::text[])`;
    for (const row of rows) {
      const entries = decode(row.data);
      cache.set(row.hash, entries);
      found.set(row.hash, entries);
    }
  }
  for (const hash of hashes) if (!found.has(hash)) throw new Error(`Manifest chunk ${hash} is missing from the database.`);
  return found;
}

/** Stores the chunks the database lacks (gzipped), in one round trip each way. */
export async function storeChunks(chunks: Chunk[], client: Queryable = db): Promise<void> {
  if (!chunks.length) return;
  const hashes = chunks.map((c) => c.hash);
  const existing = await client.$queryRaw<{ hash: string }[]>`SELECT "hash" FROM "ManifestChunk" WHERE "hash" = ANY(${hashes}::text[])`;
  const have = new Set(existing.map((r) => r.hash));
  const fresh = chunks.filter((c) => !have.has(c.hash));
  if (!fresh.length) return;
  const data = fresh.map((c) => gzipSync(c.json));
  await client.$executeRaw`
    INSERT INTO "ManifestChunk" ("hash", "entries", "data")
    SELECT * FROM unnest(${fresh.map((c) => c.hash)}::text[], ${fresh.map((c) => c.entries.length)}::int[], ${data}::bytea[])
    ON CONFLICT ("hash") DO NOTHING`;
}

/** Every entry of a manifest, sorted by path. */
export async function manifestEntries(refs: ChunkRef[]): Promise<Entry[]> {
  const chunks = await loadChunks(refs.map((r) => r.hash));
  return refs.flatMap((r) => chunks.get(r.hash)!);
}

/** The chunk holding `path`, if any: its hash says whether two versions differ there. */
export function chunkOf(refs: ChunkRef[], path: string): ChunkRef | null {
  let found: ChunkRef | null = null;
  for (let lo = 0, hi = refs.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (comparePaths(refs[mid].first, path) <= 0) {
      found = refs[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** One entry by path: a binary search of the index, then of one chunk. */
export async function findEntry(refs: ChunkRef[], path: string): Promise<Entry | null> {
  const ref = chunkOf(refs, path);
  if (!ref) return null;
  const entries = (await loadChunks([ref.hash])).get(ref.hash)!;
  for (let lo = 0, hi = entries.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    const order = comparePaths(entries[mid].path, path);
    if (order === 0) return entries[mid];
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/**
 * Same bytes served the same way. Types compare as served: a type given
 * explicitly that matches the one guessed from the name (a restore sends back
 * what a version's files list shows) is no change.
 */
const sameFile = (a: Entry, b: Entry) => a.sha256 === b.sha256 && (a.contentType === b.contentType || contentTypeOf(a.path, a.contentType) === contentTypeOf(b.path, b.contentType));

/**
 * What `next` changes against `base`. Chunks both share are unchanged as a
 * whole and never decoded; `known` supplies chunks not yet stored.
 */
export async function diffManifests(base: ChunkRef[], next: ChunkRef[], known: Chunk[] = [], client: Queryable = db): Promise<Diff> {
  const baseHashes = new Set(base.map((r) => r.hash));
  const nextHashes = new Set(next.map((r) => r.hash));
  let unchanged = 0;
  for (const r of next) if (baseHashes.has(r.hash)) unchanged += r.count;
  const baseOnly = base.filter((r) => !nextHashes.has(r.hash));
  const nextOnly = next.filter((r) => !baseHashes.has(r.hash));
  const inMemory = new Map(known.map((c) => [c.hash, c.entries]));
  const loaded = await loadChunks([...baseOnly, ...nextOnly].map((r) => r.hash).filter((h) => !inMemory.has(h)), client);
  const entriesOf = (r: ChunkRef) => inMemory.get(r.hash) ?? loaded.get(r.hash)!;
  const before = new Map<string, Entry>();
  for (const r of baseOnly) for (const e of entriesOf(r)) before.set(e.path, e);
  const added: string[] = [];
  const changed: string[] = [];
  for (const r of nextOnly) {
    for (const e of entriesOf(r)) {
      const old = before.get(e.path);
      if (!old) added.push(e.path);
      else {
        before.delete(e.path);
        if (sameFile(old, e)) unchanged++;
        else changed.push(e.path);
      }
    }
  }
  return { added, changed, removed: [...before.keys()], unchanged };
}
