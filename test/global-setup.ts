// One database server for the run (DATABASE_URL's, or an embedded one), and a
// migrated template database that every test file copies into its own.
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { databaseServer, databaseUrl, dropDatabase, ensureDatabase } from '../lib/db/embedded-postgres.ts';
import { migrate } from '../lib/db/migrate.ts';

declare module 'vitest' {
  interface ProvidedContext {
    databaseServerUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await databaseServer({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: path.resolve('.atrium/test-postgres'),
  });
  const template = `atrium_template_${process.pid}`;
  await dropDatabase(server.serverUrl, template);
  await ensureDatabase(server.serverUrl, template);
  await migrate(databaseUrl(server.serverUrl, template));
  project.provide('databaseServerUrl', server.serverUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await dropDatabase(server.serverUrl, template);
    await server.stop();
  };
}
