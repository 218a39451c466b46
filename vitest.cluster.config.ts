// The cluster test (test/cluster/): web nodes serve the production build, so
// `npm test` runs it after `next build`, apart from the other Vitest files.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/cluster/**/*.test.ts'], exclude: ['**/node_modules/**'], testTimeout: 240_000 },
});
