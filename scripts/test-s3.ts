// `npm run test:s3`: the Vitest suite with every blob in an S3-compatible
// bucket (s3rver on loopback) instead of on disk, to show that everything
// that stores bytes works on S3 as on the other stores. Arguments go to Vitest.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startS3StandIn } from './s3-stand-in.ts';

const s3 = await startS3StandIn('atrium-suite');
const vitest = path.resolve(import.meta.dirname, '../node_modules/.bin/vitest');
const child = spawn(vitest, ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    S3_BUCKET: s3.config.bucket,
    S3_ENDPOINT: s3.config.endpoint!,
    S3_REGION: s3.config.region,
    S3_ACCESS_KEY_ID: s3.config.accessKeyId!,
    S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey!,
    S3_FORCE_PATH_STYLE: 'true',
  },
});
const code = await new Promise<number>((resolve) => child.on('exit', (exit) => resolve(exit ?? 1)));
await s3.close();
process.exit(code);
