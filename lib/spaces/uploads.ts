// One-off uploads: files attached to a space outside its versions, stored in
// the same content-addressed blob store. The body is raw bytes; Content-Length
// is required (bad_request without it) and bounded by MAX_UPLOAD_BYTES
// (too_large, answered before anything is read); a body shorter or longer
// than its Content-Length is refused and nothing is kept. An upload counts
// against the workspace's storage limit (lib/storage/usage.ts); a deleted
// upload's bytes are reclaimed by lib/storage/gc.ts once nothing uses them.
import { lookup } from 'mime-types';
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { formatBytes } from '../format.ts';
import type { IncomingBody } from '../core/body.ts';
import { ApiError } from '../core/errors.ts';
import type { FileAnswer } from '../core/files.ts';
import { newId } from '../ids.ts';
import { isMediaType } from '../schemas/common.ts';
import type { Upload } from '../schemas/spaces.ts';
import { blobStore } from '../storage/index.ts';
import { claimBlob, holdBlob, releaseReservation, reserveStorage } from '../storage/usage.ts';
import { attachment, emptyStream } from './content.ts';
import { spaceWith } from './spaces.ts';
import { createTicket } from './tickets.ts';

const uploadSelect = {
  id: true,
  name: true,
  size: true,
  sha256: true,
  contentType: true,
  createdAt: true,
  uploadedBy: { select: { id: true, handle: true, name: true } },
} as const;

type UploadRow = { id: string; name: string; size: bigint; sha256: string; contentType: string; createdAt: Date; uploadedBy: Upload['uploadedBy'] };

function uploadOut(row: UploadRow): Upload {
  return { id: row.id, name: row.name, size: Number(row.size), sha256: row.sha256, contentType: row.contentType, uploadedBy: row.uploadedBy, createdAt: row.createdAt.getTime() };
}

/**
 * The declared type, parameters included (a charset must survive), unless it
 * says nothing or is not a media type by the same grammar pushed files obey;
 * else one guessed from the name. The type is served back in a header, so a
 * malformed one must never be stored.
 */
function uploadType(name: string, declared: string | null): string {
  const type = declared?.trim();
  if (type && isMediaType(type)) {
    const end = type.search(/ *;|$/);
    // Type and subtype are case-insensitive: keep them in one form.
    const essence = type.slice(0, end).toLowerCase();
    if (essence !== 'application/octet-stream') return essence + type.slice(end);
  }
  return lookup(name) || 'application/octet-stream';
}

export async function listUploads(caller: Caller, id: string): Promise<Upload[]> {
  const { space } = await spaceWith(caller, id, 'view');
  const rows = await db.upload.findMany({ where: { spaceId: space.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: uploadSelect });
  return rows.map(uploadOut);
}

export async function createUpload(caller: SignedInCaller, id: string, name: string, body: IncomingBody): Promise<Upload> {
  const { space } = await spaceWith(caller, id, 'push');
  if (/[/\\]/.test(name)) throw new ApiError('bad_request', 'query.name: must be a file name without "/" or "\\".');
  const { length } = body;
  if (length === null) throw new ApiError('bad_request', 'The Content-Length header is required: send the file as the raw request body.');
  if (length > config.maxUploadBytes) {
    throw new ApiError('too_large', `The file is ${formatBytes(length)}, over the upload limit of ${formatBytes(config.maxUploadBytes)}.`);
  }
  // The room is held before a byte is read: past the plan's storage limit this is 403 and nothing is stored.
  const reservation = await reserveStorage(space.workspaceId, length);
  try {
    const stored = await blobStore()
      .put(body.stream ?? emptyStream(), {
        maxBytes: length,
        admit: async (stored) => {
          if (stored.size !== length) throw new ApiError('bad_request', `The body has ${stored.size} bytes but Content-Length said ${length}.`);
          await claimBlob(stored);
        },
      })
      .catch((error) => {
        throw error instanceof ApiError && error.code === 'too_large' ? new ApiError('bad_request', `The body is longer than its Content-Length of ${length} bytes.`) : error;
      });
    const now = new Date();
    // The space row first, then the blob, then the workspace: the order a commit takes them in.
    const row = await db.$transaction(async (tx) => {
      await tx.space.update({ where: { id: space.id }, data: { uploadsUpdatedAt: now } });
      await holdBlob(tx, reservation, stored);
      return tx.upload.create({
        data: { id: newId('upload'), spaceId: space.id, name, size: BigInt(stored.size), sha256: stored.sha256, contentType: uploadType(name, body.type), uploadedById: caller.actor.user.id, createdAt: now },
        select: uploadSelect,
      });
    });
    return uploadOut(row);
  } catch (error) {
    await releaseReservation(reservation);
    throw error;
  }
}

async function findUpload(spaceId: string, uploadId: string) {
  const row = await db.upload.findFirst({ where: { id: uploadId, spaceId }, select: uploadSelect });
  if (!row) throw new ApiError('not_found', `No upload ${uploadId} in this space.`);
  return row;
}

export async function uploadAttachment(spaceId: string, uploadId: string): Promise<FileAnswer> {
  const row = await findUpload(spaceId, uploadId);
  return attachment({ sha256: row.sha256, size: Number(row.size), contentType: row.contentType }, row.name);
}

export async function uploadRaw(caller: Caller, id: string, uploadId: string): Promise<FileAnswer> {
  const { space } = await spaceWith(caller, id, 'view');
  return uploadAttachment(space.id, uploadId);
}

export async function uploadLink(caller: Caller, id: string, uploadId: string) {
  const { space } = await spaceWith(caller, id, 'view');
  const row = await findUpload(space.id, uploadId);
  return createTicket(space.id, { uploadId: row.id });
}

export async function deleteUpload(caller: SignedInCaller, id: string, uploadId: string): Promise<void> {
  const { space } = await spaceWith(caller, id, 'push');
  const row = await findUpload(space.id, uploadId);
  // Two deletes of one upload at once both pass the lookup; the one that
  // finds the row gone answers as if the lookup had failed.
  const [deleted] = await db.$transaction([
    db.upload.deleteMany({ where: { id: row.id, spaceId: space.id } }),
    db.space.update({ where: { id: space.id }, data: { uploadsUpdatedAt: new Date() } }),
  ]);
  if (deleted.count === 0) throw new ApiError('not_found', `No upload ${uploadId} in this space.`);
}
