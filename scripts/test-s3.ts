// `npm run test:s3`: the Vitest suite with every blob in an S3-compatible
// bucket (s3rver on loopback) instead of on disk, to show that everything
// that stores bytes works on S3 as on the other stores. Arguments go to Vitest.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { s3Env, startS3StandIn } from './s3-stand-in.ts';

const s3 = await startS3StandIn('atrium-suite');
const vitest = path.resolve(import.meta.dirname, '../node_modules/.bin/vitest');
const child = spawn(vitest, ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...s3Env(s3.config) },
});
const code = await new Promise<number>((resolve) => child.on('exit', (exit) => resolve(exit ?? 1)));
await s3.close();
process.exit(code);
