// Sets a workspace's plan as the server's operator:
//   npm run billing:plan -- <workspace-slug> <free|pro|team|enterprise>
// Uses DATABASE_URL, else the embedded database under DATA_DIR (stop the
// server first in that case: one process owns the embedded database).
import path from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { databaseUrl, ensureDatabase, startEmbeddedPostgres } from '../lib/db/embedded-postgres.ts';

const [slug, plan] = process.argv.slice(2);
if (!slug || !plan) {
  console.error('usage: npm run billing:plan -- <workspace-slug> <free|pro|team|enterprise>');
  process.exit(2);
}
const config = loadConfig(process.env);
let stop = async () => {};
if (!config.databaseUrl) {
  const server = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'postgres'), log: () => {} });
  stop = server.stop;
  await ensureDatabase(server.serverUrl, 'atrium');
  process.env.DATABASE_URL = databaseUrl(server.serverUrl, 'atrium');
}
const { setPlanByOperator } = await import('../lib/billing/operator.ts');
try {
  const { from, to } = await setPlanByOperator(slug, plan);
  console.log(`${slug}: ${from} -> ${to}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await stop();
  process.exit();
}
