// A real S3-protocol server on loopback (s3rver), started by the tests and the
// cluster harness (`npm run cluster`): the boundary double for S3-compatible
// storage, as the Stripe and Vercel Blob stand-ins are for theirs. Its files
// are under a fresh folder, or `folder`; given the same folder and `port`, a
// second one takes over the first's bucket (a store stopped and started again).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../lib/config.ts';

export type S3StandIn = { config: S3Config; directory: string; close: () => Promise<void> };

export async function startS3StandIn(bucket = 'atrium-test', folder?: string, port = 0): Promise<S3StandIn> {
  const directory = folder ?? (await mkdtemp(path.join(tmpdir(), 'atrium-s3-')));
  await mkdir(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
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
    // A stop drops the clients' keep-alive connections, as a store going away does: without it
    // close() waits for them, and a client that keeps sending never lets them go.
    close: async () => {
      const closing = server.close();
      (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await closing;
    },
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
