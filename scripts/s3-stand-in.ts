// A real S3-protocol server on loopback (s3rver), started by the tests and the
// cluster harness (`npm run cluster`): the boundary double for S3-compatible
// storage, as the Stripe and Vercel Blob stand-ins are for theirs. Its files
// are under a fresh folder, or `directory`.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../lib/config.ts';

export async function startS3StandIn(bucket = 'atrium-test', folder?: string): Promise<{ config: S3Config; directory: string; close: () => Promise<void> }> {
  const directory = folder ?? (await mkdtemp(path.join(tmpdir(), 'atrium-s3-')));
  await mkdir(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  // s3rver removes a prefix's folder when its last object goes, and a write racing that removal
  // fails with ENOENT and crashes it: a file of our own (not an object) keeps the folders.
  for (const prefix of ['tmp', 'blobs']) {
    await mkdir(path.join(directory, bucket, prefix), { recursive: true });
    await writeFile(path.join(directory, bucket, prefix, '.keep'), '');
  }
  return {
    // s3rver's fixed credentials.
    config: { bucket, endpoint: `http://127.0.0.1:${address.port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    directory,
    close: () => server.close(),
  };
}

/** The settings that point Atrium at a bucket (README: S3_BUCKET and the rest), for the processes a script starts. */
export function s3Env(config: S3Config): Record<string, string> {
  return {
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint ?? '',
    S3_REGION: config.region,
    S3_ACCESS_KEY_ID: config.accessKeyId ?? '',
    S3_SECRET_ACCESS_KEY: config.secretAccessKey ?? '',
    S3_FORCE_PATH_STYLE: String(config.forcePathStyle),
  };
}
