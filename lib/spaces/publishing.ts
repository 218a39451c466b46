// Publishing: the plan / blob / commit cycle, and reading versions, files,
// history and downloads.
//
// A push sends its whole file list twice: to plan (which blobs the server
// lacks, and the diff) and to commit. Both are a constant number of queries
// whatever the number of files. A commit is one transaction that locks the
// space row: racing commits get consecutive numbers, each a full snapshot of
// what its pusher listed, with its diff against the version just before it.
import { LRUCache } from 'lru-cache';
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { rolesWith } from '../access/capabilities.ts';
import { forgetToken, TOKEN_REFUSED } from '../auth/tokens.ts';
import { config } from '../config.ts';
import { db, Prisma, query, type PrismaClient } from '../db/client.ts';
import { formatBytes } from '../format.ts';
import { siteCacheBytes, siteCacheVersions, siteRulesCompiled } from '../core/metrics.ts';
import type { IncomingBody } from '../core/body.ts';
import { ApiError } from '../core/errors.ts';
import type { FileAnswer } from '../core/files.ts';
import type { Alias, Diff, FileEntryInput, SiteRulesSummary, Version } from '../schemas/spaces.ts';
import { blobStore } from '../storage/index.ts';
import { checkRoom, claimBlob, holdBlob, recordBlobPut, releaseReservation, startBlobPut, storageFull, storageUsage, touchBlobs } from '../storage/usage.ts';
import { attachment, contentTypeOf, emptyStream } from './content.ts';
import { chunkEntries, chunkOf, chunkRefs, comparePaths, diffManifests, findEntry, loadChunks, manifestEntries, storeChunks, type ChunkRef, type Entry } from './manifest.ts';
import { normalizePath } from './paths.ts';
import { moveAlias } from './aliases.ts';
import { siteUrl } from './hosts.ts';
import { compileRules, parseHeaders, parseRedirects, RULE_LIMITS, type CompiledRules, type IgnoredLine, type SiteRules } from './site-rules.ts';
import { spaceChanged } from './space-cache.ts';
import { spaceWith } from './spaces.ts';
import { createTicket } from './tickets.ts';
import { queueWebhookEvent } from '../audit/webhook-events.ts';

export const MAX_FILES = 200_000;
/** Text longer than this is cut in file reads. */
export const TEXT_LIMIT = 1024 * 1024;

/** Normalises, checks and sorts a pushed file list. */
function prepareEntries(files: FileEntryInput[]): Entry[] {
  if (files.length > MAX_FILES) throw new ApiError('too_large', `A version holds at most ${MAX_FILES} files; this one lists ${files.length}.`);
  const entries = files.map((f): Entry => {
    const path = normalizePath(f.path);
    if (f.size > config.maxUploadBytes) {
      throw new ApiError('too_large', `${path} is ${formatBytes(f.size)}, over the limit of ${formatBytes(config.maxUploadBytes)} per file.`);
    }
    return { path, sha256: f.sha256, size: f.size, contentType: f.contentType ?? null };
  });
  entries.sort((a, b) => comparePaths(a.path, b.path));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].path === entries[i - 1].path) throw new ApiError('bad_request', `The file ${entries[i].path} is listed twice.`);
  }
  return entries;
}

/**
 * The stored size of each of `hashes` the workspace holds. A plan and a commit
 * each ask this for every file of the push (10,000 hashes in, as many rows
 * out): plain SQL, as Prisma's per-value cost dominates at that size.
 */
async function heldBlobSizes(workspaceId: string, hashes: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(hashes)];
  if (!unique.length) return new Map();
  const rows = await query<{ sha256: string; size: string }>(
    `SELECT wb."sha256", b."size" FROM "WorkspaceBlob" wb JOIN "Blob" b ON b."sha256" = wb."sha256"
     WHERE wb."workspaceId" = $1 AND wb."sha256" = ANY($2::text[])`,
    [workspaceId, unique],
  );
  return new Map(rows.map((r) => [r.sha256, Number(r.size)]));
}

async function missingBlobs(workspaceId: string, hashes: string[]): Promise<string[]> {
  const have = await heldBlobSizes(workspaceId, hashes);
  return [...new Set(hashes)].filter((h) => !have.has(h));
}

// A version's chunk index and rules never change once written: they are kept,
// the rules compiled, by recent use within a memory budget (docs/decisions.md,
// "Rules kept in the site"), so a version is compiled once while it is in use.
const SITE_CACHE_BYTES = 64 * 1024 * 1024;
/** An estimate of what a chunk ref holds: its first path, hash and count. */
const CHUNK_REF_BYTES = 200;
type VersionSite = { refs: ChunkRef[]; rules: CompiledRules | null };
// A version heavier than the whole budget is not kept, so a run of big ones evicts a few others instead of emptying it.
const siteCache = new LRUCache<string, VersionSite>({ maxSize: SITE_CACHE_BYTES });
siteCacheVersions(() => siteCache.size);
siteCacheBytes(() => siteCache.calculatedSize);

/** Reads of versions not kept yet, so that requests arriving together read and compile a version once. */
const loading = new Map<string, Promise<VersionSite | null>>();

/** A version as its site is served: the chunk index and the site's rules, compiled. */
export function versionSite(spaceId: string, number: number, client: Pick<PrismaClient, 'version'> = db): Promise<VersionSite | null> {
  const key = `${spaceId}:${number}`;
  const cached = siteCache.get(key);
  if (cached) return Promise.resolve(cached);
  // A read inside a transaction stays on its connection: another request's read may be waiting for a pooled
  // connection that the transactions hold.
  if (client !== db) return loadVersionSite(key, spaceId, number, client);
  let pending = loading.get(key);
  if (!pending) {
    pending = loadVersionSite(key, spaceId, number, client).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

async function loadVersionSite(key: string, spaceId: string, number: number, client: Pick<PrismaClient, 'version'>): Promise<VersionSite | null> {
  const row = await client.version.findUnique({ where: { spaceId_number: { spaceId, number } }, select: { chunks: true, siteRules: true } });
  if (!row) return null;
  const refs = row.chunks as ChunkRef[];
  const rules = row.siteRules ? compileRules(row.siteRules as SiteRules) : null;
  if (rules) siteRulesCompiled.inc();
  const site = { refs, rules };
  siteCache.set(key, site, { size: Math.max(1, refs.length * CHUNK_REF_BYTES + (rules?.bytes ?? 0)) });
  return site;
}

export async function versionRefs(spaceId: string, number: number, client: Pick<PrismaClient, 'version'> = db): Promise<ChunkRef[] | null> {
  return (await versionSite(spaceId, number, client))?.refs ?? null;
}

const versionSelect = {
  number: true,
  message: true,
  createdAt: true,
  fileCount: true,
  bytes: true,
  author: { select: { id: true, handle: true, name: true } },
} as const;

type VersionRow = { number: number; message: string | null; createdAt: Date; fileCount: number; bytes: bigint; author: Version['author'] };

function versionOut(row: VersionRow): Version {
  return { number: row.number, message: row.message, author: row.author, createdAt: row.createdAt.getTime(), fileCount: row.fileCount, bytes: Number(row.bytes) };
}

/** A file list is read only after the permission check: it may be megabytes long. */
type ReadInput<T> = () => Promise<T>;

export async function planPush(caller: SignedInCaller, id: string, readInput: ReadInput<{ files: FileEntryInput[] }>): Promise<{ baseVersion: number; missing: string[]; diff: Diff }> {
  const { space } = await spaceWith(caller, id, 'push');
  const entries = prepareEntries((await readInput()).files);
  const chunks = chunkEntries(entries);
  const [base, missing] = await Promise.all([
    space.latestVersion ? versionRefs(space.id, space.latestVersion) : null,
    missingBlobs(space.workspaceId, entries.map((e) => e.sha256)),
  ]);
  const diff = await diffManifests(base ?? [], chunkRefs(chunks), chunks);
  // Blobs this push adds are kept from the collector for its grace period from now.
  await touchBlobs(db, space.workspaceId, freshHashes(entries, diff));
  return { baseVersion: space.latestVersion, missing, diff };
}

/** The hashes of the files a diff adds or changes: what a push references that its base did not. */
function freshHashes(entries: Entry[], diff: Diff): string[] {
  const paths = new Set([...diff.added, ...diff.changed]);
  return [...new Set(entries.filter((e) => paths.has(e.path)).map((e) => e.sha256))];
}

/**
 * Stores a blob from the request body, streamed. A blob the workspace already
 * has is a success (without reading the body, unless this token PUT to the
 * space in the last minute: then bytes come first, see storeThenRecord).
 * Bytes stored by another workspace must still be sent once, which proves the
 * pusher has them, and count against this workspace's storage too. Past the
 * plan's storage limit it is 403, decided from Content-Length before reading
 * when it is given and it does not fit the room last seen.
 */
export async function putBlob(caller: SignedInCaller, id: string, sha256: string, body: IncomingBody, retried = false): Promise<void> {
  const key = `${caller.actor.token.id} ${id}`;
  const recent = recentPushers.get(key);
  const { length } = body;
  if (recent && length !== null && length <= config.maxUploadBytes && (recent.room === null || length <= recent.room)) {
    // Held back from the next PUTs on this node until this one's statement says what is left.
    if (recent.room !== null) recent.room -= length;
    return storeThenRecord(caller, id, sha256, body, key);
  }
  // Every file of a first push comes through here: the caller's token (the
  // route names the caller from a recent lookup: checksOwnToken), the space,
  // the caller's role, the blob's refresh and the room for it are one
  // statement (startBlobPut); anyone but a member who may push is answered by
  // the general check (spaceWith), which says why.
  const start = await startBlobPut({
    spaceId: id,
    userId: caller.actor.user.id,
    tokenId: caller.actor.token.id,
    sha256,
    length: body.length,
    maxBytes: config.maxUploadBytes,
    pushRoles: PUSH_ROLES,
  });
  if (!start.live) {
    forgetToken(caller.actor.token.id);
    throw new ApiError('unauthorized', TOKEN_REFUSED);
  }
  if (!start.found || !start.pusher) {
    await spaceWith(caller, id, 'push');
    // Let in meanwhile (the role changed between the two reads): ask again, once.
    if (retried) throw new ApiError('forbidden', 'You cannot push to this space.');
    return putBlob(caller, id, sha256, body, true);
  }
  recentPushers.set(key, { room: start.room });
  if (start.held) {
    await body.stream?.cancel();
    return;
  }
  const { workspaceId, reservation } = start;
  if (length !== null && length > config.maxUploadBytes) throw new ApiError('too_large', `The file is larger than the limit of ${formatBytes(config.maxUploadBytes)}.`);
  if (start.full) throw storageFull(await storageUsage(workspaceId), length ?? 0);
  const started = Date.now();
  try {
    const stored = await blobStore().put(body.stream ?? emptyStream(), {
      sha256,
      maxBytes: length ?? config.maxUploadBytes,
      admit: async (stored) => {
        if (!reservation) await checkRoom(workspaceId, stored.size);
        // startBlobPut refreshed the Blob row; an upload slower than a good
        // part of the grace period refreshes it again before its bytes show.
        if (Date.now() - started > config.storageGraceMs / 4) await claimBlob(stored);
      },
    });
    if (reservation) await holdBlob(db, reservation, stored);
    else await db.$transaction(async (tx) => holdBlob(tx, { id: null, workspaceId, limit: (await storageUsage(workspaceId, tx)).limit }, stored));
  } catch (error) {
    await releaseReservation(reservation);
    throw error;
  }
}

const PUSH_ROLES: string[] = rolesWith('push');

/**
 * Token and space pairs that a blob PUT on this node found allowed to push in
 * the last minute, with the room their workspace had left then (null: no
 * limit). They decide only the order of a PUT's work, never whether it is
 * allowed: a pair seen here has its next blobs stored first and recorded with
 * one statement (storeThenRecord), which checks everything again; anyone
 * else is checked, and a blob that would not fit refused, before a byte is read.
 */
const recentPushers = new LRUCache<string, { room: number | null }>({ max: 10_000, ttl: 60_000 });

/**
 * A blob PUT of one statement: the bytes are stored under their name first,
 * then recordBlobPut checks the token, the role and the room and records the
 * blob. Bytes it refuses keep the Blob row it wrote and are collected once
 * unused for the grace period, like those of an abandoned push.
 */
async function storeThenRecord(caller: SignedInCaller, id: string, sha256: string, body: IncomingBody, key: string): Promise<void> {
  let outcome: Awaited<ReturnType<typeof recordBlobPut>> | undefined;
  try {
    await blobStore().put(body.stream ?? emptyStream(), {
      sha256,
      maxBytes: body.length ?? config.maxUploadBytes,
      record: async (stored) => {
        outcome = await recordBlobPut({ spaceId: id, userId: caller.actor.user.id, tokenId: caller.actor.token.id, stored, pushRoles: PUSH_ROLES });
        return outcome.blobNew;
      },
    });
  } finally {
    if (!outcome || !outcome.live || !outcome.recorded) recentPushers.delete(key);
  }
  if (!outcome!.live) {
    forgetToken(caller.actor.token.id);
    throw new ApiError('unauthorized', TOKEN_REFUSED);
  }
  if (outcome!.recorded) {
    recentPushers.set(key, { room: outcome!.room });
    return;
  }
  // Refused: the general check says why; past it, the blob did not fit.
  const { space } = await spaceWith(caller, id, 'push');
  throw storageFull(await storageUsage(space.workspaceId), body.length ?? 0);
}

/** How many left-out lines a commit answer lists (a file of 42,000 rules would list 40,000); the rest are counted. */
const REPORTED_LINES = 100;

/** The version's `_redirects` and `_headers`, parsed (lib/spaces/site-rules.ts); null when it has neither. */
async function readSiteRules(entries: Entry[]): Promise<{ rules: SiteRules; ignored: IgnoredLine[] } | null> {
  const file = (name: string) => entries.find((e) => e.path === name) ?? null;
  const redirects = file('_redirects');
  const headers = file('_headers');
  if (!redirects && !headers) return null;
  // A file past the limit is read up to the last whole line within it; the first line left unread is reported.
  const read = async (entry: Entry | null, name: IgnoredLine['file']): Promise<{ text: string; unread: IgnoredLine[] }> => {
    if (!entry) return { text: '', unread: [] };
    const bytes = await readPrefix(entry.sha256, Math.min(entry.size, RULE_LIMITS.fileBytes));
    if (entry.size <= RULE_LIMITS.fileBytes) return { text: new TextDecoder().decode(bytes), unread: [] };
    const text = new TextDecoder().decode(bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1));
    const line = text.split('\n').length;
    return { text, unread: [{ file: name, line, reason: `the file is larger than ${RULE_LIMITS.fileBytes / 1024} KB; from this line on it is not read` }] };
  };
  const redirectsFile = await read(redirects, '_redirects');
  const headersFile = await read(headers, '_headers');
  const parsedRedirects = parseRedirects(redirectsFile.text);
  const parsedHeaders = parseHeaders(headersFile.text, { onAppOrigin: config.contentDomain === null });
  const ignored = [...parsedRedirects.ignored, ...redirectsFile.unread, ...parsedHeaders.ignored, ...headersFile.unread];
  return { rules: { redirects: parsedRedirects.rules, headers: parsedHeaders.rules }, ignored };
}

const noChange = (diff: Diff) => !diff.added.length && !diff.changed.length && !diff.removed.length;

export async function commitVersion(
  caller: SignedInCaller,
  id: string,
  readInput: ReadInput<{ files: FileEntryInput[]; message?: string; alias?: string }>,
): Promise<{ version: Version | null; diff: Diff; url: string; alias?: Alias; rules?: SiteRulesSummary }> {
  const { space } = await spaceWith(caller, id, 'push');
  const input = await readInput();
  const entries = prepareEntries(input.files);
  const sizes = await heldBlobSizes(space.workspaceId, entries.map((e) => e.sha256));
  const missing = [...new Set(entries.map((e) => e.sha256))].filter((h) => !sizes.has(h));
  // Files are served with their listed size as Content-Length: a size that is
  // not the blob's would cut the answer short or run it into the next one.
  const wrong = entries.find((e) => sizes.has(e.sha256) && sizes.get(e.sha256) !== e.size);
  if (wrong) {
    throw new ApiError('bad_request', `${wrong.path} is listed with ${wrong.size} bytes, but its blob (sha256 ${wrong.sha256}) has ${sizes.get(wrong.sha256)}.`);
  }
  if (missing.length) {
    const example = entries.find((e) => e.sha256 === missing[0])!;
    throw new ApiError(
      'conflict',
      `${missing.length} listed blob${missing.length === 1 ? ' is' : 's are'} missing (for example ${example.path}, sha256 ${missing[0]}). ` +
        `Plan again and upload what it lists as missing, then commit.`,
    );
  }
  const chunks = chunkEntries(entries);
  const refs = chunkRefs(chunks);
  const bytes = entries.reduce((sum, e) => sum + e.size, 0);
  const url = siteUrl(space.id);
  const rules = await readSiteRules(entries);
  const committed = await db.$transaction(
    async (tx) => {
      const [locked] = await tx.$queryRaw<{ latestVersion: number }[]>`SELECT "latestVersion" FROM "Space" WHERE "id" = ${space.id} FOR UPDATE`;
      const previous = locked.latestVersion;
      const base = previous ? await versionRefs(space.id, previous, tx) : [];
      // Through tx: a read on another pooled connection here is what deadlocked
      // the pool when many pushes committed at once.
      const diff = await diffManifests(base ?? [], refs, chunks, tx);
      // A commit that names an alias points it at its version, or at the latest when nothing changed.
      const alias = (number: number) => (input.alias && number ? moveAlias(tx, space, input.alias, number, caller.actor.user.id).then((moved) => ({ alias: moved })) : {});
      if (noChange(diff)) return { version: null, diff, url, ...(await alias(previous)) };
      // Locks and refreshes the blobs this version adds, so the collector cannot
      // delete them under it; one it deleted since the check above is missing.
      const fresh = freshHashes(entries, diff);
      if ((await touchBlobs(tx, space.workspaceId, fresh)) < fresh.length) {
        throw new ApiError('conflict', 'Some listed blobs were removed as unused before this commit. Plan again and upload what it lists as missing, then commit.');
      }
      await storeChunks(chunks, tx);
      const row = await tx.version.create({
        data: {
          spaceId: space.id,
          number: previous + 1,
          message: input.message || null,
          authorId: caller.actor.user.id,
          fileCount: entries.length,
          bytes: BigInt(bytes),
          chunks: refs,
          siteRules: rules ? rules.rules : Prisma.DbNull,
        },
        select: versionSelect,
      });
      await tx.space.update({ where: { id: space.id }, data: { latestVersion: previous + 1 } });
      const version = versionOut(row);
      await queueWebhookEvent(tx, space.workspaceId, 'version.committed', { space: { id: space.id, name: space.name, url }, version, diff: { added: diff.added.length, changed: diff.changed.length, removed: diff.removed.length, unchanged: diff.unchanged } });
      const summary = rules ? { rules: { redirects: rules.rules.redirects.length, headers: rules.rules.headers.length, ignored: rules.ignored.slice(0, REPORTED_LINES), ignoredCount: rules.ignored.length } } : {};
      return { version, diff, url, ...(await alias(previous + 1)), ...summary };
    },
    // Longer than the default: the first commit of a 100,000-file site
    // compresses and stores about 200 manifest chunks in here.
    { timeout: 60_000 },
  );
  spaceChanged(space.id);
  return committed;
}

export async function listVersions(caller: Caller, id: string): Promise<Version[]> {
  const { space } = await spaceWith(caller, id, 'view');
  const rows = await db.version.findMany({ where: { spaceId: space.id }, orderBy: { number: 'desc' }, select: versionSelect });
  return rows.map(versionOut);
}

function noVersion(number: number): ApiError {
  return new ApiError('not_found', number === 0 ? 'Nothing has been published in this space yet.' : `No version ${number} in this space.`);
}

/** The version asked for (latest when absent) and its chunk index. */
async function resolveVersion(spaceId: string, latest: number, asked: number | undefined): Promise<{ number: number; refs: ChunkRef[] }> {
  const number = asked ?? latest;
  const refs = number > 0 && number <= latest ? await versionRefs(spaceId, number) : null;
  if (!refs) throw noVersion(number);
  return { number, refs };
}

export async function versionDetail(caller: Caller, id: string, n: number | 'latest') {
  const { space } = await spaceWith(caller, id, 'view');
  const { number, refs } = await resolveVersion(space.id, space.latestVersion, n === 'latest' ? undefined : n);
  const row = await db.version.findUniqueOrThrow({ where: { spaceId_number: { spaceId: space.id, number } }, select: versionSelect });
  const before = number > 1 ? await versionRefs(space.id, number - 1) : [];
  const [entries, diff] = await Promise.all([manifestEntries(refs), diffManifests(before ?? [], refs)]);
  return { version: versionOut(row), files: entries.map(fileOut), diff };
}

/**
 * What changed from version `base` to version `head`, any two in either order
 * (by default the latest and the one before it): a comparison of their contents.
 */
export async function compareVersions(caller: Caller, id: string, asked: { base?: number; head?: number }) {
  const { space } = await spaceWith(caller, id, 'view');
  const head = asked.head ?? space.latestVersion;
  const base = asked.base ?? Math.max(1, head - 1);
  const [from, to] = await Promise.all([resolveVersion(space.id, space.latestVersion, base), resolveVersion(space.id, space.latestVersion, head)]);
  const rows = await db.version.findMany({ where: { spaceId: space.id, number: { in: [base, head] } }, select: versionSelect });
  const versionOf = (n: number) => versionOut(rows.find((row) => row.number === n)!);
  return { base: versionOf(base), head: versionOf(head), diff: await diffManifests(from.refs, to.refs) };
}

function fileOut(entry: Entry) {
  return { path: entry.path, sha256: entry.sha256, size: entry.size, contentType: contentTypeOf(entry.path, entry.contentType) };
}

/** A file of a version, for reading and downloads. */
export async function locateFile(caller: Caller, id: string, segments: string[], v: number | undefined) {
  const { space, permissions } = await spaceWith(caller, id, 'view');
  const path = normalizePath(segments.join('/'));
  const { number, refs } = await resolveVersion(space.id, space.latestVersion, v);
  const entry = await findEntry(refs, path);
  if (!entry) throw new ApiError('not_found', `No file ${path} in version ${number}.`);
  return { space, permissions, number, entry };
}

/** Up to `limit` bytes from the start of a blob. */
async function readPrefix(sha256: string, limit: number): Promise<Uint8Array> {
  const stream = await blobStore().get(sha256);
  if (!stream) throw new ApiError('not_found', 'The stored bytes of this file are missing.');
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    parts.push(chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  return Buffer.concat(parts).subarray(0, limit);
}

/** Text when the bytes are UTF-8 without NUL; a cut at the limit may split the last character, which is dropped. */
function asText(bytes: Uint8Array, cut: boolean): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    return null;
  }
}

export async function readFile(caller: Caller, id: string, segments: string[], v: number | undefined) {
  const { space, number, entry } = await locateFile(caller, id, segments, v);
  const cut = entry.size > TEXT_LIMIT;
  const text = asText(await readPrefix(entry.sha256, TEXT_LIMIT), cut);
  return {
    versionNumber: number,
    file: { ...fileOut(entry), text: text !== null, truncated: text !== null && cut },
    content: text ?? '',
    rawUrl: `${siteUrl(space.id)}${entry.path.split('/').map(encodeURIComponent).join('/')}?v=${number}`,
  };
}

export async function fileHistory(caller: Caller, id: string, segments: string[]) {
  const { space } = await spaceWith(caller, id, 'view');
  const path = normalizePath(segments.join('/'));
  const versions = await db.version.findMany({ where: { spaceId: space.id }, orderBy: { number: 'asc' }, select: { ...versionSelect, chunks: true } });
  const holders = versions.map((v) => chunkOf(v.chunks as ChunkRef[], path));
  const chunks = await loadChunks([...new Set(holders.filter((r) => r !== null).map((r) => r.hash))]);
  const entries = [];
  let before: Entry | null = null;
  for (const [i, version] of versions.entries()) {
    const holder = holders[i];
    const entry = holder ? (chunks.get(holder.hash)!.find((e) => e.path === path) ?? null) : null;
    const change = !before && entry ? 'added' : before && !entry ? 'removed' : before && entry && before.sha256 !== entry.sha256 ? 'changed' : null;
    if (change) {
      entries.push({
        version: version.number,
        change,
        sha256: entry?.sha256 ?? null,
        size: entry?.size ?? null,
        message: version.message,
        author: version.author,
        createdAt: version.createdAt.getTime(),
      } as const);
    }
    before = entry;
  }
  if (!entries.length) throw new ApiError('not_found', `No file ${path} in any version.`);
  return { entries: entries.reverse() };
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export async function downloadFile(caller: Caller, id: string, segments: string[], v: number | undefined): Promise<FileAnswer> {
  const { entry } = await locateFile(caller, id, segments, v);
  return attachment({ sha256: entry.sha256, size: entry.size, contentType: contentTypeOf(entry.path, entry.contentType) }, basename(entry.path));
}

export async function downloadLink(caller: Caller, id: string, segments: string[], v: number | undefined) {
  const { space, number, entry } = await locateFile(caller, id, segments, v);
  return createTicket(space.id, { path: entry.path, version: number });
}

/** The file a /dl ticket names, as an attachment. */
export async function versionFileAttachment(spaceId: string, path: string, number: number): Promise<FileAnswer> {
  const refs = await versionRefs(spaceId, number);
  const entry = refs ? await findEntry(refs, path) : null;
  if (!entry) throw new ApiError('not_found', 'The file of this download link no longer exists.');
  return attachment({ sha256: entry.sha256, size: entry.size, contentType: contentTypeOf(entry.path, entry.contentType) }, basename(entry.path));
}

/** A file of a version and its text (its first TEXT_LIMIT bytes; null for binary files), or null when the version has no such file. */
export async function versionFileText(spaceId: string, number: number, path: string): Promise<{ entry: Entry; text: string | null } | null> {
  const refs = await versionRefs(spaceId, number);
  const entry = refs ? await findEntry(refs, path) : null;
  if (!entry) return null;
  return { entry, text: asText(await readPrefix(entry.sha256, TEXT_LIMIT), entry.size > TEXT_LIMIT) };
}
