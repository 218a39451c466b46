// The API reference works offline and sends nothing out: every request the
// page makes goes to Atrium itself, and Scalar's "Ask AI" and MCP features,
// which send the document to Scalar's servers, are not offered. The page is
// opened at localhost, where Scalar turns those features on by default.
import { expect, test } from '@playwright/test';

test('the API reference makes requests to its own origin only and offers no Ask AI or MCP', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const outside: string[] = [];
  const record = (url: string) => {
    const { protocol } = new URL(url);
    // data: and blob: URLs are made in the page and go nowhere.
    if (protocol === 'data:' || protocol === 'blob:') return;
    if (new URL(url).origin !== origin) outside.push(url);
  };
  page.context().on('request', (request) => record(request.url()));
  page.on('websocket', (socket) => record(socket.url().replace(/^ws/, 'http')));

  await page.goto('/reference');
  await expect(page.getByText('Atrium API').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('/v1/auth/cli/start').first()).toBeVisible();
  // Let late requests (telemetry beacons, lazily loaded fonts and features) happen.
  await page.waitForLoadState('networkidle');
  await page.mouse.wheel(0, 4000);
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');

  await expect(page.getByText(/Ask AI/i)).toHaveCount(0);
  await expect(page.getByText(/Generate MCP|Connect MCP/i)).toHaveCount(0);
  await expect(page.getByPlaceholder(/Ask AI/i)).toHaveCount(0);
  expect(outside).toEqual([]);
});

test('the socket contract is served at /asyncapi.json and linked from the reference', async ({ page, request }) => {
  const answer = await request.get('/asyncapi.json');
  expect(answer.status()).toBe(200);
  const document = await answer.json();
  expect(document.asyncapi).toBe('3.0.0');
  expect(Object.keys(document.channels)).toEqual(['room', 'liveSpace']);
  await page.goto('/reference');
  await expect(page.locator('a[href="/asyncapi.json"]').first()).toBeAttached({ timeout: 30_000 });
});
