// End-to-end tests against the production build in a real Chromium. `npm test`
// prepares the database and the build; see scripts/test.ts.
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
/** The e2e tests' SMTP server listens here while a test expects e-mail. */
export const e2eSmtpPort = port + 1;
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: '.atrium/test-results/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? systemChromium,
      // Quiet Chromium: no background connections, no first-run work.
      args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      chromiumSandbox: false,
    },
  },
  outputDir: '.atrium/test-results/e2e',
  webServer: {
    command: 'node scripts/start.ts',
    url: `http://localhost:${port}/openapi.json`,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DEV_AUTH: 'true',
      // The webhooks journey's receiver listens on this machine.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort}`,
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.atrium/e2e',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
