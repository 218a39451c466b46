// Sources: files attached to a room for people and AI to read. The multipart
// body is streamed through busboy into the blob store (never held whole in
// memory) and refused past MAX_SOURCE_BYTES (413). Text is extracted in a
// child process (extract-worker.ts) with a size and a time cap, killed when it
// overruns; a file that yields no text is `unreadable`. Raw bytes are served
// with nosniff and a CSP sandbox, so an uploaded page cannot run as the app.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { lookup } from 'mime-types';
import type { SignedInCaller } from '../core/caller.ts';
import { roomAccess, roomRoleCan } from '../access/rooms.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { RoomKind } from '../db/generated/client.ts';
import { formatBytes } from '../format.ts';
import type { IncomingBody } from '../core/body.ts';
import { ApiError } from '../core/errors.ts';
import { FileAnswer } from '../core/files.ts';
import { newId } from '../ids.ts';
import { isMediaType } from '../schemas/common.ts';
import type { Source } from '../schemas/rooms.ts';
import { blobStore, type StoredBlob } from '../storage/index.ts';
import { claimBlob, holdBlob, releaseReservation, reserveStorage } from '../storage/usage.ts';
import { publishRoomEvent } from '../db/bus.ts';
import { touchActivity } from './activity.ts';

/** Characters of extracted text kept. */
export const MAX_EXTRACTED_CHARS = 200_000;
export const EXTRACT_TIMEOUT_MS = 15_000;
const SUMMARY_CHARS = 280;

const sourceSelect = {
  id: true,
  name: true,
  contentType: true,
  size: true,
  status: true,
  summary: true,
  extractedChars: true,
  hiddenFromAi: true,
  createdAt: true,
  uploadedBy: { select: { id: true, handle: true, name: true } },
} as const;

type SourceRow = { id: string; name: string; contentType: string; size: number; status: 'ready' | 'unreadable'; summary: string | null; extractedChars: number; hiddenFromAi: boolean; createdAt: Date; uploadedBy: Source['uploadedBy'] };

const sourceOut = (row: SourceRow): Source => ({ ...row, createdAt: row.createdAt.getTime() });

export async function listSources({ actor }: SignedInCaller, kind: RoomKind, id: string) {
  await roomAccess(actor.user.id, kind, id, 'view');
  const rows = await db.roomSource.findMany({ where: { roomId: id }, select: sourceSelect, orderBy: { createdAt: 'asc' } });
  return { sources: rows.map(sourceOut) };
}

/** Which of the kinds we read a file is: by its declared type, else its name. */
export function readableKind(contentType: string, name: string): 'text' | 'html' | 'pdf' | null {
  const type = contentType.split(';')[0].trim().toLowerCase();
  const byName = (lookup(name) || '').toString();
  for (const t of [type, byName]) {
    if (t === 'application/pdf') return 'pdf';
    if (t === 'text/html' || t === 'application/xhtml+xml') return 'html';
    if (t.startsWith('text/') || t === 'application/json') return 'text';
  }
  return null;
}

/** The extractor's resident memory cap: its heap is capped at 256 MB, and this catches what the heap does not count (a PDF's decoded streams). */
export const EXTRACT_MAX_RSS_BYTES = 320 * 1024 * 1024;
/** Extractions running at once in one server process; more wait their turn. */
export const EXTRACT_CONCURRENCY = 2;
const WATCH_MS = 50;

let running = 0;
const waiting: (() => void)[] = [];
async function extractionSlot(): Promise<() => void> {
  if (running >= EXTRACT_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** A process's resident memory in bytes (Linux /proc); null where it cannot be read. */
function residentBytes(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  } catch {
    return null;
  }
}

/**
 * Runs the extractor on a file's bytes in a child process, at most
 * EXTRACT_CONCURRENCY at once; null when it fails, finds no text, or overruns
 * its time or memory (killed with SIGKILL).
 */
export async function extractText(sha256: string, kind: 'text' | 'html' | 'pdf', timeoutMs = EXTRACT_TIMEOUT_MS, maxRssBytes = EXTRACT_MAX_RSS_BYTES): Promise<string | null> {
  const bytes = await blobStore().get(sha256);
  if (!bytes) return null;
  const release = await extractionSlot();
  try {
    const worker = path.join(import.meta.dirname, 'extract-worker.ts');
    const child = spawn(process.execPath, ['--max-old-space-size=256', worker, kind, String(MAX_EXTRACTED_CHARS)], { stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const watchdog = setInterval(() => {
      if ((residentBytes(child.pid!) ?? 0) > maxRssBytes) child.kill('SIGKILL');
    }, WATCH_MS);
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EXTRACTED_CHARS * 4 + 1024) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stdin.on('error', () => undefined);
    Readable.fromWeb(bytes as import('node:stream/web').ReadableStream<Uint8Array>).pipe(child.stdin).on('error', () => undefined);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    clearInterval(watchdog);
    if (code !== 0) return null;
    const text = Buffer.concat(chunks).toString('utf8').trim();
    return text ? text.slice(0, MAX_EXTRACTED_CHARS) : null;
  } finally {
    release();
  }
}

/** The first sentences of the text, as a summary when no AI service is configured. */
function summarise(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_CHARS ? flat : `${flat.slice(0, SUMMARY_CHARS - 1).replace(/\s\S*$/, '')}…`;
}

type Received = { stored: StoredBlob; name: string; contentType: string };

/** Streams the first file part of a multipart body into the blob store. */
function receiveFile(body: IncomingBody, admit: (stored: StoredBlob) => Promise<void>): Promise<Received> {
  if (!body.stream || !body.type?.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(new ApiError('bad_request', 'Send the file as multipart/form-data, in a field named "file".'));
  }
  return new Promise<Received>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Browsers send a file name as raw UTF-8 (RFC 7578); busboy would read it as Latin-1.
      parser = busboy({ headers: { 'content-type': body.type! }, defParamCharset: 'utf8', limits: { files: 1, fileSize: config.maxSourceBytes, fields: 10, parts: 12 } });
    } catch {
      return reject(new ApiError('bad_request', 'The multipart body has no valid boundary.'));
    }
    let seen = false;
    parser.on('file', (_field, file, info) => {
      if (seen) return void file.resume();
      seen = true;
      let truncated = false;
      file.on('limit', () => {
        truncated = true;
      });
      const name = (info.filename || 'file').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'file';
      const declared = info.mimeType && isMediaType(info.mimeType) && info.mimeType !== 'application/octet-stream' ? info.mimeType : null;
      const contentType = declared ?? (lookup(name) || 'application/octet-stream').toString();
      const stream = Readable.toWeb(file) as unknown as ReadableStream<Uint8Array>;
      blobStore()
        .put(stream, { maxBytes: config.maxSourceBytes + 1, admit })
        .then((stored) => {
          if (truncated || stored.size > config.maxSourceBytes) throw new ApiError('too_large', `A source holds at most ${formatBytes(config.maxSourceBytes)}.`);
          resolve({ stored, name, contentType });
        })
        .catch(reject);
    });
    parser.on('error', () => reject(new ApiError('bad_request', 'The multipart body is malformed.')));
    parser.on('close', () => {
      if (!seen) reject(new ApiError('bad_request', 'The multipart body holds no file (send it in a field named "file").'));
    });
    Readable.fromWeb(body.stream as import('node:stream/web').ReadableStream<Uint8Array>)
      .on('error', (error) => reject(error instanceof ApiError ? error : new ApiError('bad_request', 'The upload was cut short.')))
      .pipe(parser);
  });
}

export async function uploadSource(caller: SignedInCaller, kind: RoomKind, id: string, body: IncomingBody): Promise<Source> {
  const { actor } = caller;
  const { room } = await roomAccess(actor.user.id, kind, id, 'comment');
  if (body.length !== null && body.length > config.maxSourceBytes + 64 * 1024) {
    throw new ApiError('too_large', `A source holds at most ${formatBytes(config.maxSourceBytes)}.`);
  }
  const reservation = await reserveStorage(room.workspaceId, body.length ?? config.maxSourceBytes);
  try {
    const { stored, name, contentType } = await receiveFile(body, async (blob) => claimBlob(blob));
    await holdBlob(db, reservation, stored);
    const readable = readableKind(contentType, name);
    const text = readable ? await extractText(stored.sha256, readable) : null;
    const row = await db.roomSource.create({
      data: {
        id: newId('roomSource'),
        roomId: id,
        name,
        contentType,
        size: stored.size,
        sha256: stored.sha256,
        status: text ? 'ready' : 'unreadable',
        summary: text ? summarise(text) : null,
        extractedText: text,
        extractedChars: text?.length ?? 0,
        uploadedById: actor.user.id,
      },
      select: sourceSelect,
    });
    await touchActivity(id, `${name} added by @${actor.user.handle}`);
    await publishRoomEvent({ kind: 'changed', roomId: id, what: 'sources' });
    return sourceOut(row);
  } catch (error) {
    await releaseReservation(reservation);
    throw error;
  }
}

async function sourceIn(roomId: string, sourceId: string) {
  const row = await db.roomSource.findUnique({ where: { id: sourceId }, select: { ...sourceSelect, roomId: true, sha256: true, uploadedById: true } });
  if (!row || row.roomId !== roomId) throw new ApiError('not_found', `No source "${sourceId.slice(0, 100)}" here.`);
  return row;
}

export async function sourceRaw({ actor }: SignedInCaller, kind: RoomKind, id: string, sourceId: string): Promise<FileAnswer> {
  await roomAccess(actor.user.id, kind, id, 'view');
  const row = await sourceIn(id, sourceId);
  return new FileAnswer(
    { sha256: row.sha256, size: row.size, contentType: row.contentType },
    {
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(row.name)}`,
      'cache-control': 'private, no-cache',
    },
  );
}

export async function patchSource({ actor }: SignedInCaller, kind: RoomKind, id: string, sourceId: string, hiddenFromAi: boolean): Promise<Source> {
  await roomAccess(actor.user.id, kind, id, 'edit');
  await sourceIn(id, sourceId);
  await db.roomSource.updateMany({ where: { id: sourceId }, data: { hiddenFromAi } });
  await publishRoomEvent({ kind: 'changed', roomId: id, what: 'sources' });
  return sourceOut(await sourceIn(id, sourceId));
}

export async function deleteSource({ actor }: SignedInCaller, kind: RoomKind, id: string, sourceId: string) {
  const { role } = await roomAccess(actor.user.id, kind, id, 'view');
  const row = await sourceIn(id, sourceId);
  if (row.uploadedById !== actor.user.id && !roomRoleCan(role, 'edit')) throw new ApiError('forbidden', 'Only its uploader or an editor may delete a source.');
  const deleted = await db.roomSource.deleteMany({ where: { id: sourceId } });
  if (deleted.count === 0) throw new ApiError('not_found', `No source "${sourceId.slice(0, 100)}" here.`);
  await publishRoomEvent({ kind: 'changed', roomId: id, what: 'sources' });
}

// --- live-space images -----------------------------------------------------------

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

export async function uploadImage({ actor }: SignedInCaller, id: string, body: IncomingBody) {
  const { room } = await roomAccess(actor.user.id, 'live', id, 'edit');
  const type = body.type?.split(';')[0].trim().toLowerCase() ?? '';
  if (!IMAGE_TYPES.includes(type)) throw new ApiError('bad_request', `Send the image's bytes with Content-Type ${IMAGE_TYPES.join(', ')}.`);
  if (body.length === null) throw new ApiError('bad_request', 'Content-Length is required.');
  if (body.length > config.maxSourceBytes) throw new ApiError('too_large', `An image holds at most ${formatBytes(config.maxSourceBytes)}.`);
  if (!body.stream) throw new ApiError('bad_request', 'The body is empty.');
  const reservation = await reserveStorage(room.workspaceId, body.length);
  try {
    const stored = await blobStore().put(body.stream, { maxBytes: body.length, admit: async (blob) => {
        if (blob.size !== body.length) throw new ApiError('bad_request', `The body has ${blob.size} bytes but Content-Length said ${body.length}.`);
        await claimBlob(blob);
      },
    });
    await holdBlob(db, reservation, stored);
    const row = await db.roomImage.create({ data: { id: newId('roomImage'), roomId: id, sha256: stored.sha256, contentType: type, size: stored.size }, select: { id: true, contentType: true, size: true } });
    return { ...row, url: `${config.publicUrl}/v1/live-spaces/${id}/images/${row.id}` };
  } catch (error) {
    await releaseReservation(reservation);
    throw error;
  }
}

/** An image's bytes (view), for the image block that shows it. */
export async function imageRaw({ actor }: SignedInCaller, id: string, imageId: string): Promise<FileAnswer> {
  await roomAccess(actor.user.id, 'live', id, 'view');
  const row = await db.roomImage.findUnique({ where: { id: imageId }, select: { roomId: true, sha256: true, size: true, contentType: true } });
  if (!row || row.roomId !== id) throw new ApiError('not_found', `No image "${imageId.slice(0, 100)}" here.`);
  return new FileAnswer({ sha256: row.sha256, size: row.size, contentType: row.contentType }, { 'content-security-policy': "sandbox; default-src 'none'", 'cache-control': 'private, max-age=3600' });
}
