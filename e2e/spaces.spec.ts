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
  // Empty: the person who may push is offered the drop area and this space's commands.
  await expect(page.getByText('Or publish from a terminal')).toBeVisible();

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

  // Folders open in place in the tree.
  await files.locator('summary', { hasText: 'src/' }).click();
  await files.getByRole('link', { name: 'app.js' }).click();
  await expect(page.getByRole('region', { name: 'File src/app.js' }).locator('.hljs-keyword')).toHaveText('const');

  // Version 1, through the version picker.
  await page.goto(`/spaces/${spaceId}?path=README.md`);
  // The picker follows at once, with no separate button.
  await page.getByLabel('Version', { exact: true }).selectOption('1');
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

test("a viewer who opens a space's settings gets the not-found page with status 404, not 200", async ({ page, request }) => {
  const owner = `owner-${Date.now().toString(36)}`;
  const viewer = `viewer-${Date.now().toString(36)}`;
  const login = async (handle: string) => ({ authorization: `Bearer ${(await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json()).token}` });
  const ownerAuth = await login(owner);
  const viewerAuth = await login(viewer);
  const space = await (await request.post('/v1/spaces', { headers: ownerAuth, data: { workspace: owner, name: 'Settings are for admins' } })).json();
  expect((await request.post(`/v1/workspaces/${owner}/members`, { headers: ownerAuth, data: { handle: viewer, role: 'viewer' } })).ok()).toBe(true);
  expect((await request.post(`/v1/workspaces/${owner}/accept`, { headers: viewerAuth })).ok()).toBe(true);
  await signIn(page, viewer);
  expect((await page.goto(`/spaces/${space.id}`))!.status()).toBe(200);
  const settings = await page.goto(`/spaces/${space.id}/settings`);
  expect(settings!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page is not here' })).toBeVisible();
});

test('a space admin adds a custom domain, is told what DNS it needs and why it does not verify yet, and removes it', async ({ page, request }) => {
  const handle = `domains-${randomBytes(3).toString('hex')}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'With a domain' } })).json();
  await signIn(page, handle);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/spaces/${space.id}/settings`);
    const card = page.getByRole('region', { name: 'Custom domains' });
    await card.getByLabel('Domain').fill(`docs-${width}.unreachable.example`);
    await card.getByRole('button', { name: 'Add domain' }).click();
    const entry = card.getByRole('listitem', { name: `docs-${width}.unreachable.example` });
    await expect(entry).toContainText('Waiting for DNS');
    await expect(entry.getByRole('code').first()).toContainText(`_atrium-challenge.docs-${width}.unreachable.example`);
    await expect(entry.getByRole('code').nth(1)).toContainText('atrium-verify=');
    await entry.getByRole('button', { name: `Verify docs-${width}.unreachable.example` }).click();
    await expect(card.getByRole('alert')).toContainText(`docs-${width}.unreachable.example is not verified yet`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await entry.getByRole('button', { name: `Remove docs-${width}.unreachable.example` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(entry).toHaveCount(0);
  }
});
