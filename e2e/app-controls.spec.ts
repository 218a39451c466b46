// An app's owner promotes, rolls back and pauses it from its page: each asks in
// the app's dialog (Cancel changes nothing), says how it went in a toast (a
// failure too), and the deploy list shows what each deploy changed. At both
// widths, light and dark, with axe; screenshots under .atrium/test-results/e2e.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, signIn } from './helpers.ts';

/** A call as the signed-in page (its session cookie): the status and the JSON. */
async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([method, path, body]) => {
      const response = await fetch(path as string, { method: method as string, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    [method, path, body],
  );
}

test('promote, rollback and pause ask first and end in a toast; deploys show their changes', async ({ page }) => {
  // A room edited live, three deploys, and axe at four sizes and themes.
  test.setTimeout(120_000);
  const handle = `app-owner-${randomBytes(3).toString('hex')}`;
  await signIn(page, handle);
  const room = (await api(page, 'POST', '/v1/rooms', { workspace: handle, name: 'Idea room', template: 'app' })).json;
  const app = (await api(page, 'POST', `/v1/rooms/${room.id}/build`, {})).json.app;
  expect((await api(page, 'POST', `/v1/apps/${app.id}/live`, { access: 'public' })).status).toBe(200);
  // A second preview, built after a section was added to the room's page.
  await page.goto(`/rooms/${room.id}`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  await page.getByRole('textbox', { name: 'Page Idea' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('## Pricing');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Free for clubs.');
  // Once the realtime server has stored it, the build reads it.
  await expect.poll(() => page.evaluate(async (path) => (await fetch(path)).text(), `/v1/rooms/${room.id}/markdown`), { timeout: 15_000 }).toContain('Free for clubs.');
  expect((await api(page, 'POST', `/v1/rooms/${room.id}/build`, { appId: app.id })).status).toBe(200);

  await page.goto(`/apps/${app.id}`);
  const deploys = page.getByRole('list', { name: 'Deploys' });
  // The first deploy added every file.
  await expect(deploys.getByRole('listitem').first()).toContainText(/\d+ added/);

  // Promote: Cancel changes nothing; confirming makes version 2 live and says so.
  await page.getByRole('button', { name: 'Promote preview v2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote preview v2?' });
  await expect(dialog).toContainText('Version 2 replaces version 1');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await api(page, 'GET', `/v1/apps/${app.id}`)).json.liveVersion).toBe(1);
  await page.getByRole('button', { name: 'Promote preview v2' }).click();
  await dialog.getByRole('button', { name: 'Promote' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Version 2 is live.' })).toBeVisible();
  await expect(page.getByText('Version 2 at')).toBeVisible();
  await expect(deploys.getByRole('listitem')).toHaveCount(2);

  // Roll back to the first deploy.
  await page.getByRole('button', { name: 'Roll back to deploy 1' }).click();
  const rollback = page.getByRole('dialog', { name: 'Roll back to version 1?' });
  await rollback.getByRole('button', { name: 'Roll back' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rolled back: version 1 is live.' })).toBeVisible();
  await expect(deploys.getByRole('listitem')).toHaveCount(3);
  await expect(deploys.getByRole('listitem').first()).toContainText('Deploy 3 · rollback · v1');

  // Pause asks too (a danger), then Resume brings it back.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByRole('dialog', { name: `Pause ${app.name}?` }).getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Paused: visitors see a paused page.' })).toBeVisible();
  await expect(page.getByTestId('app-status')).toHaveText('paused');

  // A failure is a toast too: promoting what another tab already promoted.
  expect((await api(page, 'POST', `/v1/apps/${app.id}/promote`)).status).toBe(200);
  await page.getByRole('button', { name: 'Promote preview v2' }).click();
  await page.getByRole('dialog', { name: 'Promote preview v2?' }).getByRole('button', { name: 'Promote' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /already/i })).toBeVisible();

  await page.reload();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Resumed' })).toBeVisible();
  await expect(page.getByTestId('app-status')).toHaveText('live');

  // What a deploy changed, opened: the promotion's changed files.
  const promoted = deploys.getByRole('listitem').filter({ hasText: 'Deploy 2 · promote · v2' });
  await promoted.getByText(/changed/).click();
  await expect(promoted.getByRole('definition').first()).toBeVisible();

  await page.getByRole('button', { name: 'Roll back to deploy 1' }).click();
  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `.atrium/test-results/e2e/app-controls-dialog-${width}-${scheme}.png` });
    await expectAccessible(page);
  }
  await page.getByRole('dialog', { name: 'Roll back to version 1?' }).getByRole('button', { name: 'Cancel' }).click();
  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: `.atrium/test-results/e2e/app-controls-${width}-${scheme}.png`, fullPage: true });
    await expectAccessible(page);
  }
});
