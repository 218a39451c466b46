// Blobs in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2,
// Ceph, Garage), named blobs/<sha256>, and their compressed copies,
// copies/<sha256>.<coding>, each put whole in one request. Bytes stream to a temporary object
// (tmp/<uuid>, multipart above one part) while hashed; only bytes that match
// are copied to their final name, inside the bucket, so a wrong or partial
// upload is never visible. Nothing holds a whole blob in memory: at most two
// parts of 8 MiB are in flight.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import { CODINGS, type Coding } from '../core/files.ts';
import type { BlobStore } from './index.ts';
import { hashMismatch, meter } from './meter.ts';

const PART_BYTES = 8 * 1024 * 1024;
const key = (sha256: string) => `blobs/${sha256}`;
const copyKey = (sha256: string, coding: Coding) => `copies/${sha256}.${coding}`;
/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

export function s3Store(settings: S3Config): BlobStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint ?? undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: several S3-compatible services refuse the newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  const missing = (error: unknown) => error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

  const exists = (Key: string) =>
    client.send(new HeadObjectCommand({ Bucket, Key })).then(
      () => true,
      (error) => (missing(error) ? false : Promise.reject(error)),
    );

  return {
    async put(body, { sha256, maxBytes, admit, record }) {
      const measured = meter(maxBytes);
      const temporary = `tmp/${randomUUID()}`;
      const upload = new Upload({
        client,
        params: { Bucket, Key: temporary, Body: Readable.fromWeb(body.pipeThrough(measured.transform()) as import('node:stream/web').ReadableStream), ContentType: 'application/octet-stream' },
        partSize: PART_BYTES,
        queueSize: 2,
        // A failed multipart upload is aborted, so that no parts are left behind.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        throw measured.failure() ?? error;
      }
      const stored = measured.result();
      try {
        if (sha256 && stored.sha256 !== sha256) throw hashMismatch(sha256, stored.sha256);
        await admit?.(stored);
        const place = () => client.send(new CopyObjectCommand({ Bucket, Key: key(stored.sha256), CopySource: `${Bucket}/${temporary}` }));
        await place();
        if ((await record?.(stored)) && !(await exists(key(stored.sha256)))) await place();
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket, Key: temporary }));
      }
      return stored;
    },

    async get(sha256, _size, span) {
      try {
        const Range = span ? `bytes=${span.start}-${span.end}` : undefined;
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key(sha256), Range }));
        return object.Body ? (object.Body.transformToWebStream() as ReadableStream<Uint8Array>) : null;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },

    async getCopy(sha256, coding) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: copyKey(sha256, coding) }));
        return object.Body ? await object.Body.transformToByteArray() : null;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },

    async putCopy(sha256, coding, bytes) {
      const Key = copyKey(sha256, coding);
      await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentLength: bytes.byteLength, ContentType: 'application/octet-stream' }));
      if (!(await exists(key(sha256)))) await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },

    async delete(sha256s) {
      // The blobs first, then their copies (see putCopy).
      for (const keys of [sha256s.map(key), sha256s.flatMap((sha256) => CODINGS.map((coding) => copyKey(sha256, coding)))]) {
        for (let i = 0; i < keys.length; i += DELETE_BATCH) {
          const batch = keys.slice(i, i + DELETE_BATCH);
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        }
      }
    },

    async sweepTemporary(before) {
      let removed = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: 'tmp/', ContinuationToken }));
        const stale = (page.Contents ?? []).filter((o) => o.Key && o.LastModified && o.LastModified < before).map((o) => ({ Key: o.Key! }));
        if (stale.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: stale, Quiet: true } }));
        removed += stale.length;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      // Parts of multipart uploads that a crash left unfinished.
      const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: 'tmp/' })).catch(() => null);
      for (const stale of (uploads?.Uploads ?? []).filter((u) => u.Initiated && u.Initiated < before)) {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: stale.Key, UploadId: stale.UploadId }));
        removed++;
      }
      return removed;
    },

    async check() {
      // Proves the endpoint, the credentials and write access, with one small object.
      // With its length stated: the SDK warns on every body of unknown length, and an empty string counts as one.
      await client.send(new PutObjectCommand({ Bucket, Key: 'tmp/readiness-check', Body: '', ContentLength: 0 }));
    },
  };
}
