// Runs the Prisma CLI. On machines that cannot download Prisma's native schema
// engine, `generate` still works: it never uses the engine, so we point the
// engine variable at an existing file to stop the download attempt.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const env = { ...process.env };
if (args[0] === 'generate' && !env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync('/bin/false')) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = '/bin/false';
}
const cli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
