// The space pages of the web app, as a person uses them.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn, push } from './helpers.ts';

test('a person creates a space, browses what was pushed, reads its history and changes its settings', async ({ page, request, browser }) => {
  const handle = `pages-${randomBytes(3).toString('hex')}`;
  await signIn(page, handle);
  await page.goto(`/w/${handle}/spaces`);
  await page.getByLabel('Name').fill('Handbook');
  await page.getByRole('button', { name: 'Create space' }).click();
  await expect(page).toHaveURL(/\/spaces\/sp_[a-z0-9]+$/);
  const spaceId = page.url().split('/').pop()!;
  await expect(page.getByText('Nothing is published yet')).toBeVisible();

  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  await push(request, token, spaceId, { 'README.md': '# Handbook\n\nWelcome **aboard**.', 'src/app.js': 'const answer = 42;' }, 'First');
  await push(request, token, spaceId, { 'README.md': '# Handbook\n\nWelcome **aboard**, again.', 'src/app.js': 'const answer = 42;', 'notes.txt': 'new' }, 'Second');

  await page.goto(`/spaces/${spaceId}`);
  const files = page.getByRole('navigation', { name: 'Files' });
  await files.getByRole('link', { name: 'README.md' }).click();
  const readme = page.getByRole('region', { name: 'File README.md' });
  await expect(readme.getByRole('heading', { name: 'Handbook' })).toBeVisible();
  await expect(readme.locator('strong')).toHaveText('aboard');
  await expect(readme).toContainText('again');

  await files.getByRole('link', { name: 'src/' }).click();
  await page.getByRole('navigation', { name: 'Files' }).getByRole('link', { name: 'app.js' }).click();
  await expect(page.getByRole('region', { name: 'File src/app.js' }).locator('.hljs-keyword')).toHaveText('const');

  // Version 1, through the version picker.
  await page.goto(`/spaces/${spaceId}?path=README.md`);
  // The picker follows at once, with no separate button.
  await page.getByLabel('Version').selectOption('1');
  await expect(page).toHaveURL(/v=1/);
  await expect(page.getByRole('region', { name: 'File README.md' })).not.toContainText('again');
  await expect(page.getByRole('navigation', { name: 'Files' })).not.toContainText('notes.txt');

  await page.getByRole('navigation', { name: 'Space' }).getByRole('link', { name: 'History' }).click();
  const changes = page.getByRole('region', { name: 'Changes' });
  await expect(changes).toContainText('Changes in version 2');
  await expect(changes).toContainText('Added (1)');
  await expect(changes).toContainText('notes.txt');
  await expect(changes).toContainText('Changed (1)');

  // Settings: members only, then a stranger gets the not-found page.
  await page.getByRole('navigation', { name: 'Space' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Visibility').selectOption('members');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('members only').first()).toBeVisible();

  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await signIn(stranger, `stranger-${randomBytes(3).toString('hex')}`);
  const response = await stranger.goto(`/spaces/${spaceId}`);
  expect(response!.status()).toBe(404);
  await strangerContext.close();
});
