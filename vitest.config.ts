import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The cluster test runs web nodes from the production build: scripts/test.ts
    // runs it after the build (vitest.cluster.config.ts).
    exclude: ['test/cluster/**', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    // next-auth imports "next/server" without an extension, which Node's own
    // resolver rejects (next has no exports map); Vite's resolver accepts it.
    server: { deps: { inline: ['next-auth'] } },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test', DEV_AUTH: 'true', LOG_REQUESTS: 'false', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '.atrium/test-data' },
  },
});
