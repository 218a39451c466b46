// A workspace admin adds a webhook in the browser, sees its secret once, sends
// a test event to a receiver this test starts, and reads the delivery log.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './helpers.ts';

test('an admin adds a webhook, sends a test event and reads its delivery, at both widths', async ({ page }) => {
  const received: { event: string; signature: string }[] = [];
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ event: String(request.headers['atrium-event']), signature: String(request.headers['atrium-signature']) });
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/atrium`;
  try {
    await signIn(page, 'hook-admin');
    await page.goto('/w/hook-admin/webhooks');
    await expect(page.getByRole('heading', { name: 'New webhook' })).toBeVisible();
    // A deployed server has no docs folder: the page says how to verify a delivery itself.
    await expect(page.getByText('docs/webhooks.md')).toHaveCount(0);
    await page.getByText('How to verify a delivery').click();
    await expect(page.getByText('new Webhook(secret).verify(rawBody, headers)')).toBeVisible();
    // The API's field error reads as an instruction.
    await page.getByLabel('Endpoint URL').fill('ftp://ci.example.com/atrium');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'https://' })).toHaveText('Enter an address that starts with https://.');
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description (optional)').fill('CI notices');
    await page.getByLabel('A comment is posted').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByRole('status', { name: 'Signing secret' });
    await expect(secret).toContainText('shown only once');
    await expect(secret).toContainText(/whsec_[\w+/]{43}=/);

    const card = page.getByRole('region', { name: `Webhook ${url}` });
    await expect(card).toContainText('CI notices. Events: a version is published, a comment is posted.');
    await card.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]).toMatchObject({ event: 'ping', signature: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) });
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('table', { name: `Recent deliveries to ${url}` })).toContainText('Delivered (200)', { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText(/^whsec_/)).toHaveCount(0);
    // The log shows how long the answer took, what it said, and the body that was sent.
    const log = page.getByRole('table', { name: `Recent deliveries to ${url}` });
    await expect(log).toContainText(/\d+ ms/);
    await expect(log).toContainText('thanks');
    await log.getByText('Test', { exact: true }).click();
    await expect(log.locator('pre')).toContainText('"type": "ping"');

    for (const [width, scheme] of [[1280, 'light'], [390, 'dark']] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `.atrium/test-results/e2e/webhooks-${width}-${scheme}.png`, fullPage: true });
      await expectAccessible(page);
    }

    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(card).toContainText('Paused.');
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No webhooks yet.')).toBeVisible();
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
