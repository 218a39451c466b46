import { expect, test, type Page } from '@playwright/test';
import { mailText, startSmtpServer } from '../test/smtp-server.ts';
import { e2eSmtpPort } from '../playwright.config.ts';

async function devSignIn(page: Page, handle: string) {
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a command-line sign-in approved in the browser hands the CLI a working token', async ({ page, request }) => {
  // The CLI's side: start, and poll while nobody has approved yet.
  const started = await request.post('/v1/auth/cli/start', { data: { label: 'e2e laptop' }, headers: { 'user-agent': 'atrium-cli/e2e' } });
  expect(started.status()).toBe(200);
  const { deviceCode, userCode, verificationUrl } = await started.json();
  const pending = await request.post('/v1/auth/cli/poll', { data: { deviceCode } });
  expect(pending.status()).toBe(202);
  expect(await pending.json()).toEqual({ status: 'pending' });

  // The person's side: the link asks them to sign in first, then shows the request.
  await page.goto(verificationUrl);
  await expect(page).toHaveURL(/\/signin\?next=/);
  await devSignIn(page, 'cli-approver');
  await expect(page).toHaveURL(new RegExp(`/device\\?code=${userCode}$`));
  const card = page.getByRole('region', { name: 'Sign-in request' });
  await expect(card.getByLabel('Code')).toHaveText(userCode);
  await expect(card).toContainText('e2e laptop');
  await expect(card).toContainText('atrium-cli/e2e');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toContainText('Approved');

  // The CLI's poll now returns a token that works, once.
  const approved = await request.post('/v1/auth/cli/poll', { data: { deviceCode } });
  expect(approved.status()).toBe(200);
  const { token, user } = await approved.json();
  expect(user.handle).toBe('cli-approver');
  const me = await request.get('/v1/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user.handle).toBe('cli-approver');
  expect((await request.post('/v1/auth/cli/poll', { data: { deviceCode } })).status()).toBe(410);

  // The token appears in the person's settings and can be revoked there.
  await page.goto('/settings/tokens');
  const row = page.getByRole('listitem', { name: 'e2e laptop' });
  await expect(row).toBeVisible();
  // Last use is stored to the hour, so it is not shown to the minute.
  await expect(row.locator('dt:text-is("Last used") + dd')).toHaveText('within the last hour');
  await row.getByRole('button', { name: 'Revoke' }).click();
  // Revoking asks first, in the confirm dialog, and a toast says it happened.
  await page.getByRole('dialog', { name: 'Revoke “e2e laptop”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Revoked “e2e laptop”.' })).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await request.get('/v1/me', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
});

test('a denied command-line sign-in gets 403 on its next poll', async ({ page, request }) => {
  const { deviceCode, userCode } = await (await request.post('/v1/auth/cli/start', { data: {} })).json();
  await page.goto('/signin?next=/device');
  await devSignIn(page, 'cli-denier');
  await expect(page).toHaveURL(/\/device$/);
  // Typed by hand, in lower case and without the dash.
  await page.getByLabel('Code').fill(userCode.toLowerCase().replace('-', ''));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('region', { name: 'Sign-in request' }).getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('status')).toContainText('Denied');
  const denied = await request.post('/v1/auth/cli/poll', { data: { deviceCode } });
  expect(denied.status()).toBe(403);
  expect((await denied.json()).error.code).toBe('forbidden');
});

test('a person signs in by e-mail link, changes their handle, and signs out', async ({ page }) => {
  const smtp = await startSmtpServer(e2eSmtpPort);
  try {
    await page.goto('/signin?next=/settings');
    await page.getByLabel('E-mail address').fill('link.reader@example.com');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect.poll(() => smtp.mails.length).toBe(1);
    const link = /http:\/\/localhost:\d+\/signin\/confirm\?[^\s"<]+/.exec(mailText(smtp.mails[0]))![0];

    await page.goto(link);
    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await expect(page).toHaveURL(/\/settings$/);
    const handle = page.getByLabel('Handle');
    await expect(handle).toHaveValue('link-reader');

    // Live validation as the person types.
    await handle.fill('settings');
    await expect(page.getByText('The handle "settings" is reserved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Change handle' })).toBeDisabled();
    await handle.fill('reader');
    await expect(page.getByText('@reader is available.')).toBeVisible();
    await page.getByRole('button', { name: 'Change handle' }).click();
    // Asked first: links with the old handle stop working.
    await page.getByRole('dialog', { name: 'Change your handle to @reader?' }).getByRole('button', { name: 'Change handle' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your handle is now @reader.' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('@reader');

    await page.goto('/settings/tokens');
    await expect(page.getByRole('listitem', { name: 'web' })).toContainText('this session');

    await page.goto('/signout');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/v1/me')).status()).toBe(401);

    // The link was single use.
    await page.goto(link);
    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('expired or was already used');
  } finally {
    await smtp.close();
  }
});

test('deleting an account takes the typed handle and signs the person out', async ({ page }) => {
  await page.goto('/signin?next=/settings/delete');
  await devSignIn(page, 'short-lived');
  await expect(page.getByRole('region', { name: 'Deleted' })).toContainText('/short-lived');
  const remove = page.getByRole('button', { name: 'Delete my account' });
  await expect(remove).toBeDisabled();
  await page.getByLabel(/Type your handle/).fill('short-lived');
  await remove.click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get('/v1/me')).status()).toBe(401);
});
