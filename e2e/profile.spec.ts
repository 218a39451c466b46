// Profile basics: a display name set under Settings → Profile shows in the
// header's account menu; blocking someone from their profile lists them under
// Settings → Blocked users and collapses their comments.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('a person sets a display name and sees it in the header', async ({ page }) => {
  const handle = `named-${randomBytes(3).toString('hex')}`;
  await signIn(page, handle);
  await page.goto('/settings');
  await page.getByRole('textbox', { name: 'Display name' }).fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const account = page.getByRole('button', { name: /^Your account/ });
  await expect(account).toContainText('Ada Lovelace');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Display name' })).toHaveValue('Ada Lovelace');
  await expect(page.getByRole('button', { name: /^Your account/ })).toContainText('Ada Lovelace');
});

test('a person blocks someone from their profile, reached from a member list, and finds them under blocked users', async ({ page, request }) => {
  const tag = randomBytes(3).toString('hex');
  const owner = `blk-owner-${tag}`;
  const other = `blk-other-${tag}`;
  const ownerToken = (await (await request.post('/v1/auth/dev-login', { data: { handle: owner, label: 'cli' } })).json()).token;
  const otherLogin = await (await request.post('/v1/auth/dev-login', { data: { handle: other, name: 'Otto Other', label: 'cli' } })).json();
  expect((await request.post(`/v1/workspaces/${owner}/members`, { headers: { authorization: `Bearer ${ownerToken}` }, data: { handle: other, role: 'viewer' } })).status()).toBeLessThan(300);
  expect((await request.post(`/v1/workspaces/${owner}/accept`, { headers: { authorization: `Bearer ${otherLogin.token}` } })).status()).toBeLessThan(300);

  await signIn(page, owner);
  await page.goto(`/w/${owner}`);
  await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: new RegExp(`@${other}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/u/${other}$`));
  await expect(page.getByRole('heading', { name: 'Otto Other' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Workspaces you share' })).toContainText(`/${owner}`);
  await page.getByRole('button', { name: `Block @${other}` }).click();
  await expect(page.getByRole('button', { name: `Unblock @${other}` })).toBeVisible();

  await page.goto('/settings/blocked');
  await expect(page.getByRole('table', { name: 'Blocked users' })).toContainText(`@${other}`);
});
